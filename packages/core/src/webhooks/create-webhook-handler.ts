import type { HttpAnswer } from '../http/http-answer.js';
import { checkedClaim } from '../ledger/claim-contract.js';
import type { ClaimToken } from '../ledger/event-ledger.js';
import { isKnownEventName } from '../schemas/event-names.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { deliveryVerifyOptions } from './delivery-verify-options.js';
import { answerFailedDelivery } from './failed-delivery.js';
import { processClaimedEvent } from './process-event.js';
import { processOnce } from './process-once.js';
import { rawBodyByteLength } from './raw-body.js';
import { verificationRefusal } from './verification-refusal.js';
import { verifyWithWebCrypto } from './verify-with-web-crypto.js';
import { IN_PROGRESS_RETRY_SECONDS } from './webhook-answers.js';
import { webhookContextOf } from './webhook-context.js';
import type {
  BodyProblem,
  CreateWebhookHandlerOptions,
  WebhookHandler,
  WebhookRequest,
} from './webhook-handler-types.js';
import { recordDuplicate } from './webhook-history.js';
import { WHERE } from './webhook-options.js';

// The options and the handler's types stay importable from here, where createWebhookHandler is.
export { DEFAULT_PROCESSING_TIMEOUT_MS } from './webhook-context.js';
export type {
  BodyProblem,
  CreateWebhookHandlerOptions,
  WebhookHandler,
  WebhookRequest,
} from './webhook-handler-types.js';

/**
 * The framework-neutral webhook receiver: verify the signature on the raw body, derive the event's
 * key, claim it in the ledger, decide and commit the entitlement change, run your listeners,
 * complete the claim, answer. It answers 2xx only after the store committed.
 *
 * It verifies on node's crypto, synchronously, where the runtime has it, and on Web Crypto where it
 * has not (an edge runtime: `@dcbkit/core/web`'s createFetchWebhook serves it there), with the same
 * answers either way.
 *
 * Answers: 200 applied, duplicate, unknown event name or unknown offer; 400 bad body; 401 bad
 * signature; 409 + Retry-After while the same event is processed elsewhere; 413 body too large;
 * 500 when the store, ledger or a listener throws (claim released, so the retry is processed), when
 * the ledger's claim answers outside its contract (`ledger_contract_violated`), or when the body
 * was not handed over raw; 503 + Retry-After when an event overtook the payment
 * that creates its entitlement, or processing outlasted `timeoutMs`. Nothing is written for a
 * refused request. Every 5xx is logged with its Error and handed to `onError`.
 *
 * @example
 * const handler = createWebhookHandler({
 *   secrets: process.env.DCB_WEBHOOK_SECRET ?? '',
 *   store: memoryStore(),
 *   ledger: memoryLedger(),
 *   offers,
 *   on: { accessGranted: ({ accountKey, productUid }) => console.log('welcome', accountKey, productUid) },
 * });
 * // Any framework: hand over the raw bytes and the headers, write back the answer.
 * const answer = await handler({ rawBody: Buffer.from('{}'), headers: {} });
 */
export function createWebhookHandler(options: CreateWebhookHandlerOptions): WebhookHandler {
  const context = webhookContextOf(options);
  const { maxBodyBytes, verifyNow, answers, ledger } = context;

  // The steps of a delivery, in order: read and verify, claim, process (decide, store, record,
  // listeners, complete), answer. Written out here, without a function per step on the hot path.
  async function handleWebhook(request: WebhookRequest): Promise<HttpAnswer> {
    if (rawBodyByteLength(request.rawBody) > maxBodyBytes)
      return answers.answerWith('refused', 'body_too_large');
    let event: WebhookEvent;
    try {
      const verify = deliveryVerifyOptions(context, request);
      event = verifyNow ? verifyNow(verify) : await verifyWithWebCrypto(verify, WHERE);
    } catch (error) {
      return verificationRefusal(context, error);
    }
    if (!isKnownEventName(event.event)) return answers.accept('ignored');
    // One deadline for the claim and the processing: one timer per delivery on the hot path.
    let claimed: { key: string; token: ClaimToken } | undefined;
    try {
      return await context.withDeadline(async () => {
        const key = context.eventKey(event);
        if (context.once !== undefined) return processOnce(context, context.once, event, key);
        const claim = checkedClaim(await ledger.claim(key), key);
        if (claim.status === 'duplicate') {
          await recordDuplicate(context, event, key);
          return answers.accept('duplicate');
        }
        if (claim.status !== 'new')
          return answers.answerWith('deferred', 'in_progress', IN_PROGRESS_RETRY_SECONDS);
        claimed = { key, token: claim.token };
        return processClaimedEvent(context, event, key, claim.token);
      });
    } catch (error) {
      return answerFailedDelivery(context, error, event, claimed);
    }
  }

  return Object.assign(handleWebhook, {
    maxBodyBytes,
    bodyTimeoutMs: context.bodyTimeoutMs,
    reportError: context.reportError,
    health: () => context.health.snapshot(),
    refuseBody: (code: BodyProblem) =>
      answers.answerWith(code === 'body_not_raw' ? 'failed' : 'refused', code),
  });
}
