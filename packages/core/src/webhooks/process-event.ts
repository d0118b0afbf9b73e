import { type ApplyOutcome, applyEvent } from '../apply/apply-event.js';
import { settleCheckout } from '../apply/checkout-funnel-facts.js';
import { accessChange, hasEventListener, runAccessListeners, runEventListener } from '../apply/listeners.js';
import type { HttpAnswer } from '../http/http-answer.js';
import type { ClaimToken } from '../ledger/event-ledger.js';
import { metricEntriesOf } from '../metrics/metric-entries-of.js';
import { writesDebug } from '../observability/logger.js';
import type { Entitlement, EntitlementKey } from '../schemas/entitlement.js';
import { isPaymentEvent, type PaymentWebhookEvent, type WebhookEvent } from '../schemas/webhook-event.js';
import { checkLine, readLine } from './line-check.js';
import { UNMATCHED_RETRY_SECONDS } from './webhook-answers.js';
import { type DeferredUntilCommit, deferringPayments, type WebhookContext } from './webhook-context.js';
import { appliedTo, logProcessed, webhookHistoryEntry } from './webhook-history.js';

/**
 * A claimed event decided and recorded: its answer, whether what it wrote stays (`keep: false`: the
 * claim is released, or the transaction rolled back, so that the retry is processed), the
 * entitlement it was applied to, and the listeners, which run once it is committed.
 */
export interface DecidedEvent {
  answer: HttpAnswer;
  keep: boolean;
  target: EntitlementKey | undefined;
  listen: (() => Promise<void>) | undefined;
}

/**
 * The two-phase ledger path: the event, claimed with `token`, decided and stored, its listeners
 * run, then its claim completed; or, when it cannot be applied yet, its claim released.
 */
export async function processClaimedEvent(
  context: WebhookContext,
  event: WebhookEvent,
  key: string,
  token: ClaimToken,
): Promise<HttpAnswer> {
  // The payment is counted once its claim is completed: an attempt whose listener or completion
  // failed is processed again, and counts then.
  const deferred: Pick<DeferredUntilCommit, 'payments'> = { payments: [] };
  const counters = deferringPayments(context.counters, deferred);
  const holding = counters === context.counters ? context : { ...context, counters };
  const decided = await decideClaimedEvent(holding, event, key);
  await decided.listen?.();
  if (!decided.keep) {
    await context.ledger.release(key, token);
    return decided.answer;
  }
  await context.ledger.complete(key, token);
  for (const [status, offerUid] of deferred.payments) context.counters.payment(status, offerUid);
  return decided.answer;
}

/**
 * Decides a claimed event and writes it (`applyEvent`), with its pending payment, facts, history
 * and line check, on `context.store`: the store, or the store bound to the event's transaction.
 */
export async function decideClaimedEvent(
  context: WebhookContext,
  event: WebhookEvent,
  key: string,
): Promise<DecidedEvent> {
  const { logger, answers } = context;
  const applied = await applyEvent(event, context.apply);
  if (applied.outcome !== 'applied') return notApplied(context, event, applied);
  if (applied.confirmError !== undefined) {
    logger.warn?.(
      { err: applied.confirmError, event: event.event, subscriptionUid: event.subscriptionUid },
      'dcbkit: confirming a same-instant subscription change by a read failed; the tie rule decided.',
    );
  }
  // The line's read goes out first: what follows overlaps its round trip.
  const lineRead = readLine(context, event, applied.entitlement);
  if (isPaymentEvent(event)) await settlePaymentEvent(context, event, applied.accountKey);
  await recordFactsOf(context, event, applied.previous, applied.entitlement);
  const debug = writesDebug(logger);
  if (context.recordHistory !== undefined || debug) {
    const entry = webhookHistoryEntry(event, key, applied);
    if (entry !== undefined) {
      await context.recordHistory?.(entry);
      if (debug) logProcessed(logger, event, entry);
    }
  }
  const target = context.once === undefined ? undefined : appliedTo(event, applied);
  // After the event is recorded: a cancel that fails leaves nothing kept, and its retry checks again.
  const line = await checkLine(context, event, key, lineRead);
  if (line.outcome === 'retry') {
    return {
      answer: answers.answerWith('failed', 'line_cancel_failed', UNMATCHED_RETRY_SECONDS),
      keep: false,
      target,
      listen: undefined,
    };
  }
  return {
    answer: answers.accept('applied'),
    keep: true,
    target,
    listen: listenersOf(context, event, applied, line.notify),
  };
}

/**
 * An event that could not be applied: one that overtook the payment creating its entitlement is
 * not kept and answered 503 so that the retry comes after it; one naming an offer not in your
 * offers is accepted and not kept either, so that a replay after the offer is added is processed.
 */
function notApplied(
  context: WebhookContext,
  event: WebhookEvent,
  applied: Exclude<ApplyOutcome, { outcome: 'applied' }>,
): DecidedEvent {
  const { logger, on, answers } = context;
  if (applied.outcome === 'unmatched') {
    logger.warn?.(
      { event: event.event, subscriptionUid: event.subscriptionUid, paymentUid: event.paymentUid },
      `dcbkit: ${event.event} names no entitlement known yet (it may have overtaken its payment); answered 503 so the service retries.`,
    );
    return {
      answer: answers.answerWith('deferred', 'entitlement_not_found', UNMATCHED_RETRY_SECONDS),
      keep: false,
      target: undefined,
      listen: undefined,
    };
  }
  logger.warn?.(
    { event: event.event, offerUid: applied.offerUid, paymentUid: event.paymentUid },
    `dcbkit: ${event.event} names offer ${applied.offerUid ?? '(none)'}, which is not in your offers; nothing was granted. Add it to defineOffers, then replay the event from the console.`,
  );
  const listener = on.unknownOffer;
  return {
    answer: answers.accept('unknown_offer'),
    keep: false,
    target: undefined,
    listen: listener && (async () => listener({ event, offerUid: applied.offerUid })),
  };
}

/**
 * The payment's outcome is known: it is no longer a checkout to continue or a payment to read (one
 * that failed is kept with its ending; a later read may add its failureCode), and it ends its
 * checkout in the funnel; the payment is counted.
 */
async function settlePaymentEvent(
  context: WebhookContext,
  event: PaymentWebhookEvent,
  accountKey: string | undefined,
): Promise<void> {
  const succeeded = event.event === 'payment.succeeded';
  const line = event.subscriberUid === undefined ? {} : { subscriberUid: event.subscriberUid };
  const { payments } = context;
  await settleCheckout(
    context.store,
    { recordFacts: context.recordFacts, offers: context.apply.offers, keepsFacts: context.keepsMetrics },
    {
      payment: { paymentUid: event.paymentUid, status: succeeded ? 'SUCCEEDED' : 'FAILED', ...line },
      accountKey,
      readFailureCode: payments && (async () => (await payments.retrieve(event.paymentUid)).failureCode),
    },
    context.now(),
  );
  context.counters.payment(succeeded ? 'succeeded' : 'failed', event.offerUid);
}

/** The listeners of an applied event, as one call; undefined when none is set and nothing is counted. */
function listenersOf(
  context: WebhookContext,
  event: WebhookEvent,
  applied: Extract<ApplyOutcome, { outcome: 'applied' }>,
  notifyLine: (() => Promise<void>) | undefined,
): (() => Promise<void>) | undefined {
  const { on, counters } = context;
  const { accountKey, previous, entitlement } = applied;
  const listened = on.accessGranted !== undefined || on.accessRevoked !== undefined;
  const onEvent = hasEventListener(on, event);
  if (!onEvent && notifyLine === undefined && !((listened || counters.enabled) && entitlement))
    return undefined;
  return async () => {
    if (onEvent) await runEventListener(on, { event, accountKey, previous, entitlement });
    if (entitlement !== undefined && (listened || counters.enabled)) {
      const change = accessChange(previous, entitlement, event, context.now());
      if (change !== undefined) counters.access(change, entitlement.productUid);
      if (listened) {
        await runAccessListeners(on, change, {
          accountKey: entitlement.accountKey,
          productUid: entitlement.productUid,
          entitlement,
          event,
          source: 'webhook',
        });
      }
    }
    await notifyLine?.();
  };
}

/** The business view's facts of the event: those whose key is new are counted (a redelivery adds none). */
async function recordFactsOf(
  context: WebhookContext,
  event: WebhookEvent,
  held: Entitlement | undefined,
  entitlement: Entitlement | undefined,
): Promise<void> {
  if (context.recordFacts === undefined) return;
  const offerUid = event.offerUid ?? entitlement?.offerUid;
  const offer = offerUid === undefined ? undefined : context.apply.offers.get(offerUid);
  if (offer !== undefined)
    await context.recordFacts(
      metricEntriesOf({
        event,
        source: 'event',
        offer,
        held,
        accountKey: entitlement?.accountKey ?? held?.accountKey,
      }),
    );
}
