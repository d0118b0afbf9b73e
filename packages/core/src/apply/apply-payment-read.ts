import { decide, factsOf } from '../access/decide.js';
import { metricEntriesOf } from '../metrics/metric-entries-of.js';
import { defineOffers, isOffers, type Offers } from '../offers/define-offers.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { OfferDefinitionInput } from '../schemas/offer.js';
import type { Payment } from '../schemas/payment.js';
import type { Subscription } from '../schemas/subscription.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { HistorySource } from '../store/history-store.js';
import { type AccountKeyOptions, accountKeyResolver } from './account-key.js';
import { historyEntryOf, type RecordHistory, readDecision } from './history-entry.js';
import { accessChange, runAccessListeners, type WebhookListeners } from './listeners.js';
import type { RecordFacts } from './record-facts.js';
import { subscriptionReadEvent } from './subscription-read-event.js';

export interface ApplyPaymentReadOptions extends AccountKeyOptions {
  store: EntitlementStore;
  offers: Offers | readonly OfferDefinitionInput[];
  /** `accessGranted` runs when this grant starts access (the later webhook then finds access already on). */
  on?: Pick<WebhookListeners, 'accessGranted'>;
  /**
   * Reads the subscription a SUBSCRIPTION payment started (`client.subscriptions.retrieve`). A
   * payment read proves the payment succeeded, not what the subscription is today: with this, the
   * subscription's status as read is applied (as a read, which never outranks a webhook). Without
   * it, the payment grants only an entitlement no webhook has set yet, and the webhooks decide.
   */
  readSubscription?: (subscriptionUid: string) => Promise<Subscription>;
  now?: () => Date;
  /** Appends the grant to the entitlement's history (the kit wires it when its store keeps one). */
  recordHistory?: RecordHistory | undefined;
  /** Records the business view's facts of the read (the kit wires it). */
  recordFacts?: RecordFacts | undefined;
  /** What read the payment, for the history. Default `return_page`. */
  historySource?: HistorySource;
}

/**
 * - `granted`: the payment was applied now.
 * - `already_applied`: its webhook (or an earlier read) applied it before: nothing changed.
 * - `not_succeeded`: the payment is not SUCCEEDED (yet): show a waiting or try-again page.
 * - `unknown_offer`: the payment's offer is not in your offers.
 * - `no_account`: neither your metadata nor a subscriberUid names an account.
 */
export type GrantOutcome = 'granted' | 'already_applied' | 'not_succeeded' | 'unknown_offer' | 'no_account';

export interface GrantResult {
  outcome: GrantOutcome;
  entitlement: Entitlement | undefined;
  /** The record the grant replaced (for `granted` and `already_applied`); undefined when there was none. */
  previous?: Entitlement | undefined;
}

/**
 * Applies a payment read server-side (`GET /v1/payments/{uid}`, the synchronous source of truth)
 * when it is SUCCEEDED, so the return page can grant before the webhook lands. Never pass what the
 * return URL's query string says. The later payment.succeeded webhook for the same payment adds
 * no second consumable unit.
 *
 * A read never outranks a webhook, so a read taken before webhooks land cannot mask them: the
 * payment read proves no time (it sets the status only on an entitlement no event has set, and any
 * event replaces it); with `readSubscription`, a SUBSCRIPTION's status is the subscription's as read,
 * stamped with the time the read was sent (see decide's `source`). Once every webhook has landed,
 * the entitlement is what the webhooks alone give.
 *
 * @example
 * const payment = await client.payments.retrieve(req.query.paymentUid);
 * const { entitlement } = await applyPaymentRead(payment, { store, offers });
 * res.render(hasAccess(entitlement) ? 'thanks' : 'waiting');
 */
export async function applyPaymentRead(
  payment: Payment,
  options: ApplyPaymentReadOptions,
): Promise<GrantResult> {
  const { store, on = {}, now = () => new Date() } = options;
  const offers = isOffers(options.offers) ? options.offers : defineOffers(options.offers);
  if (payment.status !== 'SUCCEEDED') return { outcome: 'not_succeeded', entitlement: undefined };
  const offer = offers.get(payment.offerUid);
  if (offer === undefined) return { outcome: 'unknown_offer', entitlement: undefined };
  const at = now();
  const paymentEvent = succeededEventOf(payment, at);
  // As the webhook handler does, so both find the same account: else the subscriberUid.
  const accountKey = accountKeyResolver(options)(paymentEvent, true);
  if (accountKey === undefined) return { outcome: 'no_account', entitlement: undefined };
  const key = { accountKey, productUid: payment.productUid };
  // Read before the store update (which must stay synchronous); `at` is before the request went out.
  const subscription =
    offer.type === 'SUBSCRIPTION' && payment.subscriptionUid !== undefined && options.readSubscription
      ? await options.readSubscription(payment.subscriptionUid)
      : undefined;
  // With the subscription read, its status as of `at`; else the payment, which proves no time.
  const event: WebhookEvent = subscription
    ? {
        ...subscriptionReadEvent(subscription, at),
        paymentUid: payment.paymentUid,
        metadata: payment.metadata,
      }
    : paymentEvent;
  // Set by the change, which the store may run more than once: the last run is the one committed.
  let alreadyApplied = false;
  const { previous, next: entitlement } = await store.update(
    accountKey,
    payment.productUid,
    (current, known) => {
      alreadyApplied = known.paymentUid;
      // A subscription read is news even for a payment already applied; a payment read is not.
      if (alreadyApplied && subscription === undefined) return undefined;
      return decide(event, current, offer, key, { source: subscription ? 'read' : 'untimed_read', known });
    },
    factsOf(paymentEvent, offer),
  );
  await options.recordFacts?.(metricEntriesOf({ event, source: 'read', offer, held: previous, accountKey }));
  await options.recordHistory?.(
    historyEntryOf({
      key,
      source: options.historySource ?? 'return_page',
      decision: alreadyApplied ? 'unchanged' : readDecision({ previous, next: entitlement, wrote: true }),
      update: { previous, next: entitlement },
      event: {
        event: 'payment.read',
        occurredAt: at.toISOString(),
        paymentUid: payment.paymentUid,
        subscriptionUid: payment.subscriptionUid,
      },
    }),
  );
  if (alreadyApplied || entitlement === undefined) {
    return { outcome: 'already_applied', entitlement, previous };
  }
  await runAccessListeners(on, accessChange(previous, entitlement, paymentEvent, at), {
    ...key,
    entitlement,
    event: paymentEvent,
    source: 'payment_read',
  });
  return { outcome: 'granted', entitlement, previous };
}

/** The payment.succeeded event a succeeded payment read stands for, as of `at`. */
function succeededEventOf(payment: Payment, at: Date): WebhookEvent {
  return {
    event: 'payment.succeeded',
    occurredAt: at.toISOString(),
    paymentUid: payment.paymentUid,
    status: payment.status,
    productUid: payment.productUid,
    offerUid: payment.offerUid,
    orderId: payment.orderId,
    subscriberUid: payment.subscriberUid,
    subscriptionUid: payment.subscriptionUid,
    metadata: payment.metadata,
  };
}
