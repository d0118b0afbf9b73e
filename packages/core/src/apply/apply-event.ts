import { decide, factsOf, tiesWithHeld } from '../access/decide.js';
import { accessEffectOf } from '../access/event-meaning.js';
import { entitlementStatusOfSubscription } from '../access/subscription-status.js';
import type { Offers } from '../offers/define-offers.js';
import type { Entitlement, EntitlementKey, EntitlementStatus } from '../schemas/entitlement.js';
import type { Subscription } from '../schemas/subscription.js';
import { isPaymentEvent, type WebhookEvent } from '../schemas/webhook-event.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { AccountKeyOfEvent } from './account-key.js';

export interface ApplyContext {
  store: EntitlementStore;
  offers: Offers;
  accountKeyOf: AccountKeyOfEvent;
  /**
   * Reads the subscription the event is about (`client.subscriptions.retrieve`), called only when
   * the event meets the held status at the same instant and step with another outcome (a
   * cancellation at period end and its withdrawal, say): the read's status then settles which
   * one stands, as the spec allows ("the partner may prefer the status in the signed body and can
   * confirm with a read"). Undefined, or a read that names neither outcome or fails: the tie rule
   * decides (the outcome with more access).
   */
  confirm?: (event: WebhookEvent) => Promise<Subscription | undefined>;
}

/**
 * - `applied`: the event was decided and committed (or needs no write).
 * - `unknown_offer`: the event names an offer missing from the partner's offers; nothing written.
 * - `unmatched`: the event changes access but belongs to no known entitlement yet (a subscription
 *   event overtaking its payment); nothing written, the service should retry.
 */
export type ApplyOutcome =
  | {
      outcome: 'applied';
      accountKey: string | undefined;
      previous: Entitlement | undefined;
      entitlement: Entitlement | undefined;
      /** Set when `confirm` threw: the tie rule decided instead. Report it; the event was applied. */
      confirmError?: unknown;
      /** False for the events that change no access (payment.failed…): nothing was decided. */
      changesAccess: boolean;
      /** True when a same-instant tie with the held status was settled by the read of `confirm`. */
      tieSettled: boolean;
    }
  | { outcome: 'unknown_offer'; offerUid: string | undefined }
  | { outcome: 'unmatched' };

export async function applyEvent(event: WebhookEvent, context: ApplyContext): Promise<ApplyOutcome> {
  const { store, offers } = context;
  if (accessEffectOf(event.event) === 'none') {
    const target = await entitlementKeyOfEvent(event, context);
    const entitlement = target && (await store.get(target.accountKey, target.productUid));
    return {
      outcome: 'applied',
      accountKey: target?.accountKey,
      previous: entitlement,
      entitlement,
      changesAccess: false,
      tieSettled: false,
    };
  }
  const eventOffer = event.offerUid === undefined ? undefined : offers.get(event.offerUid);
  if (event.offerUid !== undefined && eventOffer === undefined) {
    return { outcome: 'unknown_offer', offerUid: event.offerUid };
  }
  const target = namedByPayment(event, context) ?? (await entitlementKeyOfEvent(event, context));
  if (target === undefined) return { outcome: 'unmatched' };
  // A unit is bought only by payment.succeeded, which always names its offer.
  const facts = eventOffer === undefined ? { paymentUid: event.paymentUid } : factsOf(event, eventOffer);
  // Filled in by the change, which the store may run more than once: the last run is the one committed.
  const seen: { offerUid: string | undefined; offerKnown: boolean; tie: boolean; unmatched: boolean } = {
    offerUid: undefined,
    offerKnown: true,
    tie: false,
    unmatched: false,
  };
  // `confirmation` undefined: a same-instant tie is not settled here but reported (seen.tie), and
  // nothing is written; the read that settles it then runs once, only for such a tie.
  const apply = (confirmation: { status?: EntitlementStatus } | undefined) =>
    store.update(
      target.accountKey,
      target.productUid,
      (current, known) => {
        const offerUid = event.offerUid ?? current?.offerUid;
        const offer = offerUid === undefined ? undefined : offers.get(offerUid);
        seen.offerUid = offerUid;
        // Named by its metadata, but neither the event nor a held entitlement says which offer:
        // it overtook the payment that creates the entitlement, so it waits for a retry like any
        // other early event (answering 200 would lose an early revocation for good).
        seen.unmatched = offerUid === undefined;
        seen.offerKnown = offer !== undefined || seen.unmatched;
        seen.tie = false;
        if (offer === undefined) return undefined;
        if (confirmation === undefined && tiesWithHeld(event, current, offer)) {
          seen.tie = true;
          return undefined;
        }
        return decide(event, current, offer, target, { confirmedStatus: confirmation?.status, known });
      },
      facts,
    );
  const wantsConfirmation = context.confirm !== undefined && event.subscriptionUid !== undefined;
  let update = await apply(wantsConfirmation ? undefined : {});
  let confirmError: unknown;
  let tieSettled = false;
  if (seen.tie) {
    const confirmation = await confirmTie(event, context);
    confirmError = confirmation.error;
    tieSettled = confirmation.status !== undefined;
    update = await apply(confirmation);
  }
  if (seen.unmatched) return { outcome: 'unmatched' };
  if (!seen.offerKnown) return { outcome: 'unknown_offer', offerUid: seen.offerUid };
  return {
    outcome: 'applied',
    accountKey: target.accountKey,
    previous: update.previous,
    entitlement: update.next,
    changesAccess: true,
    tieSettled,
    ...(confirmError !== undefined ? { confirmError } : {}),
  };
}

/**
 * What a read of the subscription says it is now, to settle a same-instant tie (same instant and
 * step, another outcome) with the held status. A failed read leaves the tie rule to decide.
 */
async function confirmTie(
  event: WebhookEvent,
  context: ApplyContext,
): Promise<{ status?: EntitlementStatus; error?: unknown }> {
  try {
    const subscription = await context.confirm?.(event);
    return subscription ? { status: entitlementStatusOfSubscription(subscription, event.occurredAt) } : {};
  } catch (error) {
    return { error };
  }
}

/** Payment events name their account (metadata, else the subscriber) and product: no lookup needed. */
function namedByPayment(event: WebhookEvent, context: ApplyContext): EntitlementKey | undefined {
  if (!isPaymentEvent(event)) return undefined;
  const accountKey = context.accountKeyOf(event, true);
  return accountKey === undefined ? undefined : { accountKey, productUid: event.productUid };
}

/**
 * The entitlement an event is about, when one can be named (the rules' target; the history's for a
 * duplicate delivery). Later events often carry no metadata: they are found through the
 * subscription or payment they name, and only then through metadata.
 */
export async function entitlementKeyOfEvent(
  event: WebhookEvent,
  context: ApplyContext,
): Promise<EntitlementKey | undefined> {
  const { store, offers } = context;
  const named = namedByPayment(event, context);
  if (named) return named;
  if (isPaymentEvent(event)) return keyOf(await store.findByPaymentUid(event.paymentUid));
  const known =
    (event.subscriptionUid ? await store.findBySubscriptionUid(event.subscriptionUid) : undefined) ??
    (event.paymentUid ? await store.findByPaymentUid(event.paymentUid) : undefined);
  if (known) return keyOf(known);
  const accountKey = context.accountKeyOf(event, false);
  const productUid =
    event.productUid ?? (event.offerUid ? offers.get(event.offerUid)?.productUid : undefined);
  return accountKey !== undefined && productUid !== undefined ? { accountKey, productUid } : undefined;
}

function keyOf(entitlement: Entitlement | undefined): EntitlementKey | undefined {
  return entitlement && { accountKey: entitlement.accountKey, productUid: entitlement.productUid };
}
