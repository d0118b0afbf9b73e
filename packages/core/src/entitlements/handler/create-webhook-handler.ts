import { DEFAULT_MAX_BODY_BYTES } from '../../node/read-raw-body.js';
import type { OfferDefinitionInput } from '../../schemas/offer.js';
import type { Payment } from '../../schemas/payment.js';
import { isKnownEventName, type WebhookEvent } from '../../schemas/webhook-event.js';
import type { RawBody } from '../../webhooks/hmac.js';
import { SIGNATURE_HEADER } from '../../webhooks/signature-header.js';
import { verifyWebhook } from '../../webhooks/verify-webhook.js';
import {
  isAuthenticationFailure,
  WebhookVerificationError,
} from '../../webhooks/webhook-verification-error.js';
import { eventKey as defaultEventKey } from '../ledger/event-key.js';
import type { ClaimResult, EventLedger } from '../ledger/event-ledger.js';
import { defineOffers, isOffers, type Offers } from '../offers/define-offers.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { type AccountKeyOption, DEFAULT_ACCOUNT_KEY_FIELD } from './account-key.js';
import { type ApplyContext, applyEvent } from './apply-event.js';
import { type GrantResult, grantFromPayment } from './grant-from-payment.js';
import {
  accessChange,
  hasEventListener,
  runAccessListeners,
  runEventListener,
  type WebhookListeners,
} from './listeners.js';
import { consoleLogger, describeError, type WebhookLogger } from './logger.js';
import {
  IN_PROGRESS_RETRY_SECONDS,
  received,
  refused,
  UNMATCHED_RETRY_SECONDS,
  type WebhookResponse,
} from './webhook-response.js';

/** A webhook request as any framework has it: the raw body bytes and the headers, names lowercased. */
export interface WebhookRequest {
  /** The exact bytes received (Buffer, Uint8Array or string), never a parsed object. */
  rawBody: RawBody;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

export interface CreateWebhookHandlerOptions {
  /** The environment's webhook signing secret, or several while rotating. */
  secrets: string | readonly string[];
  store: EntitlementStore;
  ledger: EventLedger;
  /** Your offers (defineOffers, or the plain list): they say what each offer grants. */
  offers: Offers | readonly OfferDefinitionInput[];
  /** Your listeners, per event name and for access granted / revoked. At least once: make them idempotent. */
  on?: WebhookListeners;
  /** Which account an event belongs to: a payment metadata field name, or a function. Default `accountKey`, else subscriberUid. */
  accountKey?: AccountKeyOption;
  /** The de-duplication key of an event. Default `eventKey` (name, payment, subscription, order, occurredAt). */
  eventKey?: (event: WebhookEvent) => string;
  /** Larger bodies get 413 before any verification. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Signature timestamp tolerance. Default 300 s, as the spec says. */
  toleranceSeconds?: number;
  /** Default: console. */
  logger?: WebhookLogger;
  /** The clock, for tests. */
  now?: () => Date;
}

/** The handler: call it with the raw request, write back what it returns. */
export interface WebhookHandler {
  (request: WebhookRequest): Promise<WebhookResponse>;
  /** grantFromPayment with this handler's store, offers, accountKey and accessGranted listener. */
  grantFromPayment(payment: Payment): Promise<GrantResult>;
  /** The body size above which it answers 413; adapters stop reading the stream there too. */
  readonly maxBodyBytes: number;
}

/**
 * The framework-neutral webhook receiver: verify the signature on the raw body, derive the event's
 * key, claim it in the ledger, decide and commit the entitlement change, run your listeners,
 * complete the claim, answer. It answers 2xx only after the store committed.
 *
 * Answers: 200 applied, duplicate, unknown event name or unknown offer; 400 bad body; 401 bad
 * signature; 409 + Retry-After while the same event is processed elsewhere; 413 body too large;
 * 500 when the store, ledger or a listener throws (claim released, so the retry is processed) or
 * when the body was not handed over raw; 503 + Retry-After when an event overtook the payment
 * that creates its entitlement. Nothing is written for a refused request.
 *
 * @example
 * const handler = createWebhookHandler({
 *   secrets: process.env.DCB_WEBHOOK_SECRET,
 *   store: memoryStore(),
 *   ledger: memoryLedger(),
 *   offers,
 *   on: { accessGranted: ({ accountKey, productUid }) => mailer.welcome(accountKey, productUid) },
 * });
 * // Any framework: hand over the raw bytes and the headers, write back the answer.
 * const { status, headers, body } = await handler({ rawBody: req.body, headers: req.headers });
 * res.status(status).set(headers).send(body);
 */
export function createWebhookHandler(options: CreateWebhookHandlerOptions): WebhookHandler {
  const {
    secrets,
    store,
    ledger,
    on = {},
    accountKey = DEFAULT_ACCOUNT_KEY_FIELD,
    eventKey = defaultEventKey,
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    toleranceSeconds,
    logger = consoleLogger,
    now = () => new Date(),
  } = options;
  checkOptions(options);
  const offers = isOffers(options.offers) ? options.offers : defineOffers(options.offers);
  const context: ApplyContext = { store, offers, accountKey };

  function refuse(error: unknown): WebhookResponse {
    if (!(error instanceof WebhookVerificationError)) {
      logger.error('dcbkit: verifying a webhook failed unexpectedly; answered 500.', {
        error: describeError(error),
      });
      return refused(500, 'internal_error');
    }
    if (error.reason === 'body_not_raw') {
      // The partner's mounting mistake, not the service's: say how to fix it, loudly.
      logger.error(`dcbkit: ${error.message}`);
      return refused(500, 'body_not_raw');
    }
    logger.warn(`dcbkit: webhook refused (${error.reason}).`, { reason: error.reason });
    return refused(isAuthenticationFailure(error.reason) ? 401 : 400, error.reason);
  }

  async function process(event: WebhookEvent, key: string): Promise<WebhookResponse> {
    const applied = await applyEvent(event, context);
    if (applied.outcome === 'unmatched') {
      logger.warn(
        `dcbkit: ${event.event} names no entitlement known yet (it may have overtaken its payment); answered 503 so the service retries.`,
        { event: event.event, subscriptionUid: event.subscriptionUid, paymentUid: event.paymentUid },
      );
      await ledger.release(key);
      return refused(503, 'entitlement_not_found', UNMATCHED_RETRY_SECONDS);
    }
    if (applied.outcome === 'unknown_offer') {
      logger.warn(
        `dcbkit: ${event.event} names offer ${applied.offerUid ?? '(none)'}, which is not in your offers; nothing was granted. Add it to defineOffers, then replay the event from the console.`,
        { event: event.event, offerUid: applied.offerUid, paymentUid: event.paymentUid },
      );
      await on.unknownOffer?.({ event, offerUid: applied.offerUid });
      // Released, not completed: a replay after the offer is added must be processed.
      await ledger.release(key);
      return received('unknown_offer');
    }
    const { accountKey: account, previous, entitlement } = applied;
    if (hasEventListener(on, event))
      await runEventListener(on, { event, accountKey: account, previous, entitlement });
    if (entitlement !== undefined && (on.accessGranted || on.accessRevoked)) {
      await runAccessListeners(on, accessChange(previous, entitlement, event, now()), {
        accountKey: entitlement.accountKey,
        productUid: entitlement.productUid,
        entitlement,
        event,
        source: 'webhook',
      });
    }
    await ledger.complete(key);
    return received('applied');
  }

  async function handleWebhook(request: WebhookRequest): Promise<WebhookResponse> {
    if (byteLength(request.rawBody) > maxBodyBytes) return refused(413, 'body_too_large');
    let event: WebhookEvent;
    try {
      event = verifyWebhook({
        rawBody: request.rawBody,
        signature: headerValue(request.headers, SIGNATURE_HEADER),
        secrets,
        toleranceSeconds,
        now: now(),
      });
    } catch (error) {
      return refuse(error);
    }
    if (!isKnownEventName(event.event)) return received('ignored');
    let key: string;
    let claim: ClaimResult;
    try {
      key = eventKey(event);
      claim = await ledger.claim(key);
    } catch (error) {
      logger.error('dcbkit: claiming the event in the ledger failed; answered 500 so the service retries.', {
        event: event.event,
        error: describeError(error),
      });
      return refused(500, 'processing_failed');
    }
    if (claim === 'duplicate') return received('duplicate');
    if (claim === 'in_progress') return refused(409, 'in_progress', IN_PROGRESS_RETRY_SECONDS);
    try {
      return await process(event, key);
    } catch (error) {
      logger.error('dcbkit: processing the event failed; answered 500 so the service retries.', {
        event: event.event,
        error: describeError(error),
      });
      await ledger.release(key).catch((releaseError: unknown) =>
        logger.error(
          'dcbkit: releasing the ledger claim failed too; the retry is processed once its lease lapses.',
          {
            error: describeError(releaseError),
          },
        ),
      );
      return refused(500, 'processing_failed');
    }
  }

  return Object.assign(handleWebhook, {
    maxBodyBytes,
    grantFromPayment: (payment: Payment) =>
      grantFromPayment(payment, { store, offers, accountKey, on: { accessGranted: on.accessGranted }, now }),
  });
}

function checkOptions(options: CreateWebhookHandlerOptions): void {
  const { secrets, store, ledger, maxBodyBytes } = options;
  const secretList = typeof secrets === 'string' ? [secrets] : secrets;
  if (
    !Array.isArray(secretList) ||
    secretList.length === 0 ||
    !secretList.every((s) => typeof s === 'string' && s !== '')
  ) {
    throw new TypeError(
      'createWebhookHandler: secrets must be a non-empty string or a non-empty list of them.',
    );
  }
  if (typeof store?.update !== 'function')
    throw new TypeError('createWebhookHandler: store must be an EntitlementStore.');
  if (typeof ledger?.claim !== 'function')
    throw new TypeError('createWebhookHandler: ledger must be an EventLedger.');
  if (maxBodyBytes !== undefined && !(Number.isSafeInteger(maxBodyBytes) && maxBodyBytes > 0)) {
    throw new TypeError('createWebhookHandler: maxBodyBytes must be a whole number of bytes > 0.');
  }
}

function byteLength(body: unknown): number {
  if (typeof body === 'string') return Buffer.byteLength(body, 'utf8');
  return body instanceof Uint8Array ? body.byteLength : 0;
}

function headerValue(
  headers: WebhookRequest['headers'],
  name: string,
): string | readonly string[] | undefined {
  const value = headers[name];
  if (value !== undefined) return value;
  for (const [header, candidate] of Object.entries(headers)) {
    if (header.toLowerCase() === name) return candidate;
  }
  return undefined;
}
