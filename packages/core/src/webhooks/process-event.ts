import { applyEvent } from '../apply/apply-event.js';
import { accessChange, hasEventListener, runAccessListeners, runEventListener } from '../apply/listeners.js';
import { settlePendingPayment } from '../apply/pending-payments.js';
import type { HttpAnswer } from '../http/http-answer.js';
import type { ClaimToken } from '../ledger/event-ledger.js';
import { metricEntriesOf } from '../metrics/metric-entries-of.js';
import { writesDebug } from '../observability/logger.js';
import type { Entitlement } from '../schemas/entitlement.js';
import { isPaymentEvent, type WebhookEvent } from '../schemas/webhook-event.js';
import { checkLine } from './line-check.js';
import { UNMATCHED_RETRY_SECONDS } from './webhook-answers.js';
import type { WebhookContext } from './webhook-context.js';
import { logProcessed, webhookHistoryEntry } from './webhook-history.js';

/**
 * A claimed event, decided and stored (`applyEvent`), then recorded in the history, handed to the
 * listeners, and its claim completed; or, when it cannot be applied yet, its claim released.
 */
export async function processClaimedEvent(
  context: WebhookContext,
  event: WebhookEvent,
  key: string,
  token: ClaimToken,
): Promise<HttpAnswer> {
  const { ledger, logger, on, answers } = context;
  const applied = await applyEvent(event, context.apply);
  if (applied.outcome === 'unmatched') {
    logger.warn?.(
      { event: event.event, subscriptionUid: event.subscriptionUid, paymentUid: event.paymentUid },
      `dcbkit: ${event.event} names no entitlement known yet (it may have overtaken its payment); answered 503 so the service retries.`,
    );
    await ledger.release(key, token);
    return answers.answerWith('deferred', 'entitlement_not_found', UNMATCHED_RETRY_SECONDS);
  }
  if (applied.outcome === 'unknown_offer') {
    logger.warn?.(
      { event: event.event, offerUid: applied.offerUid, paymentUid: event.paymentUid },
      `dcbkit: ${event.event} names offer ${applied.offerUid ?? '(none)'}, which is not in your offers; nothing was granted. Add it to defineOffers, then replay the event from the console.`,
    );
    await on.unknownOffer?.({ event, offerUid: applied.offerUid });
    // Released, not completed: a replay after the offer is added must be processed.
    await ledger.release(key, token);
    return answers.accept('unknown_offer');
  }
  if (applied.confirmError !== undefined) {
    logger.warn?.(
      { err: applied.confirmError, event: event.event, subscriptionUid: event.subscriptionUid },
      'dcbkit: confirming a same-instant subscription change by a read failed; the tie rule decided.',
    );
  }
  // The payment's outcome is known: it is no longer a checkout to continue or a payment to read
  // (one that failed is kept with its ending; a later read may add its failureCode).
  if (isPaymentEvent(event)) {
    const status = event.event === 'payment.succeeded' ? 'SUCCEEDED' : 'FAILED';
    const line = event.subscriberUid === undefined ? {} : { subscriberUid: event.subscriberUid };
    await settlePendingPayment(
      context.store,
      { paymentUid: event.paymentUid, status, ...line },
      context.now(),
    );
    context.counters.payment(event.event === 'payment.succeeded' ? 'succeeded' : 'failed', event.offerUid);
  }
  await recordFactsOf(context, event, applied.previous, applied.entitlement);
  const debug = writesDebug(logger);
  if (context.recordHistory !== undefined || debug) {
    const entry = webhookHistoryEntry(event, key, applied);
    if (entry !== undefined) {
      await context.recordHistory?.(entry);
      if (debug) logProcessed(logger, event, entry);
    }
  }
  const { accountKey, previous, entitlement } = applied;
  if (hasEventListener(on, event)) await runEventListener(on, { event, accountKey, previous, entitlement });
  const listened = on.accessGranted !== undefined || on.accessRevoked !== undefined;
  const change =
    entitlement !== undefined && (listened || context.counters.enabled)
      ? accessChange(previous, entitlement, event, context.now())
      : undefined;
  if (change !== undefined && entitlement !== undefined)
    context.counters.access(change, entitlement.productUid);
  if (entitlement !== undefined && listened) {
    await runAccessListeners(on, change, {
      accountKey: entitlement.accountKey,
      productUid: entitlement.productUid,
      entitlement,
      event,
      source: 'webhook',
    });
  }
  // After the event is recorded: a cancel that fails leaves it applied, and its retry checks again.
  if ((await checkLine(context, event, key, entitlement)) === 'retry') {
    await ledger.release(key, token);
    return answers.answerWith('failed', 'line_cancel_failed', UNMATCHED_RETRY_SECONDS);
  }
  await ledger.complete(key, token);
  return answers.accept('applied');
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
    await context.recordFacts(metricEntriesOf({ event, source: 'event', offer, held }));
}
