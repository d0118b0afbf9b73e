import { type AccountKeyOptions, accountKeyResolver } from '../apply/account-key.js';
import { type ApplyContext, applyEvent, entitlementKeyOfEvent } from '../apply/apply-event.js';
import {
  eventDecision,
  historyEntryOf,
  historyRecorder,
  type RecordHistory,
} from '../apply/history-entry.js';
import {
  accessChange,
  hasEventListener,
  runAccessListeners,
  runEventListener,
  type WebhookListeners,
} from '../apply/listeners.js';
import { forgetSettledPayment, type PendingPaymentKeeper } from '../apply/record-pending-payment.js';
import { isDcbError } from '../errors/dcb-error.js';
import { optionError } from '../errors/option-error.js';
import type { HttpAnswer } from '../http/http-answer.js';
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from '../http/limits.js';
import { eventKey as defaultEventKey } from '../ledger/event-key.js';
import type { ClaimToken, EventLedger } from '../ledger/event-ledger.js';
import { createErrorReporter, type ErrorHook, type ReportError } from '../observability/error-reporter.js';
import { createLogLimit } from '../observability/log-limit.js';
import { consoleLogger, type DcbLogger, writesDebug } from '../observability/logger.js';
import { defineOffers, isOffers, type Offers } from '../offers/define-offers.js';
import { isKnownEventName } from '../schemas/event-names.js';
import type { OfferDefinitionInput } from '../schemas/offer.js';
import type { Subscription } from '../schemas/subscription.js';
import { isPaymentEvent, type WebhookEvent } from '../schemas/webhook-event.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { isHistoryStore } from '../store/history-store.js';
import { createDeadlines } from './deadlines.js';
import { findNodeCrypto } from './node-crypto.js';
import { type RawBody, rawBodyByteLength } from './raw-body.js';
import { SIGNATURE_HEADER } from './signature-header.js';
import type { VerifyWebhookOptions } from './verify-checks.js';
import { checkTolerance, verifyWebhook } from './verify-webhook.js';
import { verifyWithWebCrypto } from './verify-with-web-crypto.js';
import {
  IN_PROGRESS_RETRY_SECONDS,
  received,
  refused,
  UNMATCHED_RETRY_SECONDS,
  type WebhookOutcome,
} from './webhook-answers.js';
import { createWebhookHealth, type DeliveryOutcome, type WebhookHealth } from './webhook-health.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

/** How long the store, the ledger and your listeners may take for one delivery, by default. */
export const DEFAULT_PROCESSING_TIMEOUT_MS = 10_000;

/** A webhook request as any framework has it: the raw body bytes and the headers, names lowercased. */
export interface WebhookRequest {
  /** The exact bytes received (Buffer, Uint8Array or string), never a parsed object. */
  rawBody: RawBody;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

export interface CreateWebhookHandlerOptions extends AccountKeyOptions {
  /** The environment's webhook signing secret, or several while rotating. */
  secrets: string | readonly string[];
  /** Where entitlements live; when it keeps pending payments too, a payment's outcome settles its record. */
  store: EntitlementStore & PendingPaymentKeeper;
  ledger: EventLedger;
  /** Your offers (defineOffers, or the plain list): they say what each offer grants. */
  offers: Offers | readonly OfferDefinitionInput[];
  /** Your listeners, per event name and for access granted / revoked. At least once: make them idempotent. */
  on?: WebhookListeners;
  /** The de-duplication key of an event. Default `eventKey` (name, payment, subscription, order, occurredAt). */
  eventKey?: (event: WebhookEvent) => string;
  /** Larger bodies get 413 before any verification. Default 1 MiB. */
  maxBodyBytes?: number;
  /** How long a webhook body may take to arrive, through an adapter that reads it (Node's, or `@dcbkit/core/web`'s). Default 10 000 ms; slower ones get 408. */
  bodyTimeoutMs?: number;
  /** Signature timestamp tolerance: a whole number of seconds, 1 to 3600. Default 300, as the spec says. */
  toleranceSeconds?: number;
  /**
   * The longest the store, the ledger and your listeners may take for one delivery. Past it the
   * handler answers 503 (the service retries), releases the claim and reports the timeout.
   * Default 10 000.
   */
  timeoutMs?: number;
  /**
   * Settles a same-instant tie between subscription events (a cancellation and its withdrawal
   * in one second) with a server-side read, as the spec allows. createDcbKit wires the client.
   */
  confirm?: (event: WebhookEvent) => Promise<Subscription | undefined>;
  /** Default: warnings and errors on the console. pino plugs in as it is. */
  logger?: DcbLogger;
  /** Receives the Error (stack and cause kept) whenever the handler answers 5xx. */
  onError?: ErrorHook;
  /**
   * Record every decision in the store's history (when the store keeps one: memoryStore and the
   * SQL stores do). Default true.
   */
  history?: boolean;
  /** The clock, for tests. */
  now?: () => Date;
}

/** The handler: call it with the raw request, write back what it returns. */
export interface WebhookHandler {
  (request: WebhookRequest): Promise<HttpAnswer>;
  // What an adapter that reads the body itself needs to answer as the handler would.
  /** The body size above which it answers 413; adapters stop reading the stream there too. */
  readonly maxBodyBytes: number;
  /** How long adapters wait for the body before answering 408. */
  readonly bodyTimeoutMs: number;
  /** The handler's error reporting (log and onError), for adapters that answer before calling it. */
  readonly reportError: ReportError;
  /** Counts of the deliveries answered since the handler was made, by outcome and code. */
  health(): WebhookHealth;
  /**
   * The answer to a body an adapter could not read (too large, too slow, cut off, or consumed by a
   * parser), counted in `health()` like the handler's own answers.
   */
  refuseBody(code: BodyProblem): HttpAnswer;
}

/** Why an adapter could not hand the body over. */
export type BodyProblem = 'body_too_large' | 'body_timeout' | 'body_incomplete' | 'body_not_raw';

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
 * 500 when the store, ledger or a listener throws (claim released, so the retry is processed) or
 * when the body was not handed over raw; 503 + Retry-After when an event overtook the payment
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
  checkOptions(options);
  const {
    secrets,
    store,
    ledger,
    on = {},
    eventKey = defaultEventKey,
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    bodyTimeoutMs = DEFAULT_BODY_TIMEOUT_MS,
    timeoutMs = DEFAULT_PROCESSING_TIMEOUT_MS,
    logger = consoleLogger,
    now = () => new Date(),
  } = options;
  const toleranceSeconds = checkTolerance(options.toleranceSeconds, 'createWebhookHandler');
  const reportError = createErrorReporter(logger, options.onError);
  const withDeadline = createDeadlines(timeoutMs);
  const offers = isOffers(options.offers) ? options.offers : defineOffers(options.offers);
  const { confirm } = options;
  const recordHistory: RecordHistory | undefined =
    options.history === false ? undefined : historyRecorder(isHistoryStore(store) ? store : undefined);
  const health = createWebhookHealth(options.now);
  const logLimit = createLogLimit();
  // Chosen once: the synchronous verification on node's crypto wherever the runtime has it (Node,
  // Bun, Deno, workerd with nodejs_compat), at no cost over calling it directly; Web Crypto, async,
  // where it has not (an edge runtime). Both make the same checks and refuse with the same codes
  // and messages (verify-checks.ts), so the answers are the same.
  const verifyNow: ((verify: VerifyWebhookOptions) => WebhookEvent) | undefined =
    findNodeCrypto() === undefined ? undefined : verifyWebhook;

  /** A 200, counted. */
  function accept(outcome: WebhookOutcome): HttpAnswer {
    health.record(outcome === 'duplicate' ? 'duplicate' : 'accepted');
    return received(outcome);
  }

  /** A refusal or a failure, counted under its code. */
  function answerWith(
    outcome: Exclude<DeliveryOutcome, 'accepted' | 'duplicate'>,
    code: Parameters<typeof refused>[0],
    retryAfterSeconds?: number,
  ): HttpAnswer {
    health.record(outcome, code);
    return refused(code, retryAfterSeconds);
  }
  const context: ApplyContext = {
    store,
    offers,
    accountKeyOf: accountKeyResolver(options),
    ...(confirm ? { confirm } : {}),
  };

  function refuse(error: unknown): HttpAnswer {
    if (!(error instanceof WebhookVerificationError)) {
      reportError(
        error,
        { source: 'webhook' },
        'dcbkit: verifying a webhook failed unexpectedly; answered 500.',
      );
      return answerWith('failed', 'internal_error');
    }
    if (error.code === 'body_not_raw') {
      // The partner's mounting mistake, not the service's: say how to fix it, loudly.
      reportError(error, { source: 'webhook' }, `dcbkit: ${error.message}`);
      return answerWith('failed', 'body_not_raw');
    }
    if (error.code === 'signature_mismatch') {
      // Most often this app's secret, not an attacker: said as an error, with the fix, once a minute.
      if (logLimit(error.code)) {
        logger.error?.(
          { code: error.code },
          'dcbkit: a webhook was refused: its signature matches none of the configured secrets (answered 401; the service retries, then dead-letters it). Check DCB_WEBHOOK_SECRET: it must be the signing secret of this environment in the console; while rotating, give both, new first: DCB_WEBHOOK_SECRET=whsec_new,whsec_old.',
        );
      }
    } else {
      logger.warn?.({ code: error.code }, `dcbkit: webhook refused (${error.code}).`);
    }
    return answerWith('refused', error.code);
  }

  async function process(event: WebhookEvent, key: string, token: ClaimToken): Promise<HttpAnswer> {
    const applied = await applyEvent(event, context);
    if (applied.outcome === 'unmatched') {
      logger.warn?.(
        { event: event.event, subscriptionUid: event.subscriptionUid, paymentUid: event.paymentUid },
        `dcbkit: ${event.event} names no entitlement known yet (it may have overtaken its payment); answered 503 so the service retries.`,
      );
      await ledger.release(key, token);
      return answerWith('deferred', 'entitlement_not_found', UNMATCHED_RETRY_SECONDS);
    }
    if (applied.outcome === 'unknown_offer') {
      logger.warn?.(
        { event: event.event, offerUid: applied.offerUid, paymentUid: event.paymentUid },
        `dcbkit: ${event.event} names offer ${applied.offerUid ?? '(none)'}, which is not in your offers; nothing was granted. Add it to defineOffers, then replay the event from the console.`,
      );
      await on.unknownOffer?.({ event, offerUid: applied.offerUid });
      // Released, not completed: a replay after the offer is added must be processed.
      await ledger.release(key, token);
      return accept('unknown_offer');
    }
    if (applied.confirmError !== undefined) {
      logger.warn?.(
        { err: applied.confirmError, event: event.event, subscriptionUid: event.subscriptionUid },
        'dcbkit: confirming a same-instant subscription change by a read failed; the tie rule decided.',
      );
    }
    // The payment's outcome is known: it is no longer a checkout to continue or a payment to read.
    if (isPaymentEvent(event)) await forgetSettledPayment(store, event.paymentUid);
    const { accountKey: account, previous, entitlement } = applied;
    // An event that changed nothing is history too: a failed payment says why there is no access.
    const held =
      entitlement ??
      previous ??
      (account !== undefined && event.productUid !== undefined
        ? { accountKey: account, productUid: event.productUid }
        : undefined);
    const debug = writesDebug(logger);
    if (held !== undefined && (recordHistory !== undefined || debug)) {
      const update = { previous, next: entitlement, wrote: false };
      const entry = historyEntryOf({
        key: { accountKey: held.accountKey, productUid: held.productUid },
        source: 'webhook',
        decision: applied.changesAccess ? eventDecision(event, update, applied.tieSettled) : 'unchanged',
        update,
        event,
        eventKey: key,
      });
      await recordHistory?.(entry);
      if (debug)
        logger.debug?.(
          {
            event: event.event,
            accountKey: entry.accountKey,
            productUid: entry.productUid,
            decision: entry.decision,
            statusBefore: entry.statusBefore,
            statusAfter: entry.statusAfter,
          },
          'dcbkit: webhook processed',
        );
    }
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
    await ledger.complete(key, token);
    return accept('applied');
  }

  /** A duplicate delivery, in the history of the entitlement it names (when one can be named). */
  async function recordDuplicate(event: WebhookEvent, key: string): Promise<void> {
    if (recordHistory === undefined) return;
    const target = await entitlementKeyOfEvent(event, context);
    if (target === undefined) return;
    const entitlement = await store.get(target.accountKey, target.productUid);
    await recordHistory(
      historyEntryOf({
        key: target,
        source: 'webhook',
        decision: 'duplicate',
        update: { previous: entitlement, next: entitlement },
        event,
        eventKey: key,
      }),
    );
  }

  async function fail(
    error: unknown,
    event: WebhookEvent,
    claimed: { key: string; token: ClaimToken } | undefined,
  ): Promise<HttpAnswer> {
    const timedOut = isDcbError(error, 'timeout');
    reportError(
      error,
      { source: 'webhook', event: event.event },
      timedOut
        ? `dcbkit: processing ${event.event} took longer than ${timeoutMs} ms; answered 503 so the service retries.`
        : `dcbkit: processing ${event.event} failed; answered 500 so the service retries.`,
    );
    if (claimed !== undefined) {
      await ledger
        .release(claimed.key, claimed.token)
        .catch((releaseError: unknown) =>
          logger.error?.(
            { err: releaseError },
            'dcbkit: releasing the ledger claim failed too; the retry is processed once its lease lapses.',
          ),
        );
    }
    return timedOut
      ? answerWith('failed', 'processing_timeout', IN_PROGRESS_RETRY_SECONDS)
      : answerWith('failed', 'processing_failed');
  }

  async function handleWebhook(request: WebhookRequest): Promise<HttpAnswer> {
    if (rawBodyByteLength(request.rawBody) > maxBodyBytes) return answerWith('refused', 'body_too_large');
    let event: WebhookEvent;
    try {
      const verify: VerifyWebhookOptions = {
        rawBody: request.rawBody,
        signature: headerValue(request.headers, SIGNATURE_HEADER),
        secrets,
        toleranceSeconds,
        now: now(),
      };
      event = verifyNow ? verifyNow(verify) : await verifyWithWebCrypto(verify, WHERE);
    } catch (error) {
      return refuse(error);
    }
    if (!isKnownEventName(event.event)) return accept('ignored');
    // One deadline for the claim and the processing: one timer per delivery on the hot path.
    let claimed: { key: string; token: ClaimToken } | undefined;
    try {
      return await withDeadline(async () => {
        const key = eventKey(event);
        const claim = await ledger.claim(key);
        if (claim.status === 'duplicate') {
          await recordDuplicate(event, key);
          return accept('duplicate');
        }
        if (claim.status !== 'new') return answerWith('deferred', 'in_progress', IN_PROGRESS_RETRY_SECONDS);
        claimed = { key, token: claim.token };
        return process(event, key, claim.token);
      });
    } catch (error) {
      return fail(error, event, claimed);
    }
  }

  return Object.assign(handleWebhook, {
    maxBodyBytes,
    bodyTimeoutMs,
    reportError,
    health: () => health.snapshot(),
    refuseBody: (code: BodyProblem) => answerWith(code === 'body_not_raw' ? 'failed' : 'refused', code),
  });
}

const WHERE = 'createWebhookHandler';

function checkOptions(options: CreateWebhookHandlerOptions): void {
  if (typeof options !== 'object' || options === null) throw optionError(WHERE, 'options', 'are required.');
  const { secrets, store, ledger, maxBodyBytes, timeoutMs, bodyTimeoutMs } = options;
  const secretList = typeof secrets === 'string' ? [secrets] : secrets;
  if (
    !Array.isArray(secretList) ||
    secretList.length === 0 ||
    !secretList.every((s) => typeof s === 'string' && s !== '')
  ) {
    throw optionError(WHERE, 'secrets', 'must be a non-empty string or a non-empty list of them.');
  }
  if (typeof store?.update !== 'function') throw optionError(WHERE, 'store', 'must be an EntitlementStore.');
  if (typeof ledger?.claim !== 'function') throw optionError(WHERE, 'ledger', 'must be an EventLedger.');
  if (maxBodyBytes !== undefined && !(Number.isSafeInteger(maxBodyBytes) && maxBodyBytes > 0)) {
    throw optionError(WHERE, 'maxBodyBytes', 'must be a whole number of bytes > 0.');
  }
  for (const [option, value] of [
    ['timeoutMs', timeoutMs],
    ['bodyTimeoutMs', bodyTimeoutMs],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw optionError(WHERE, option, 'must be a whole number of milliseconds > 0.');
    }
  }
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
