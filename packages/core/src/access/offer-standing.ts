import type { Entitlement } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import { hasAccess } from './has-access.js';
import { isLiveSubscription } from './reconcile-deadline.js';
import { type SubscriptionActions, subscriptionActions } from './subscription-actions.js';

/** A checkout the account started and has not finished: it can be continued until `expiresAt`. */
export interface OpenCheckout {
  readonly paymentUid: string;
  readonly offerUid: string;
  readonly productUid: string;
  /** Where the subscriber continues it; absent for one a return page found open (no URL kept). */
  readonly checkoutUrl?: string | undefined;
  /** After this the service expires it (ISO 8601); absent when unknown. */
  readonly expiresAt?: string | undefined;
  /** Set once it ended unpaid (a store that keeps such payments): it cannot be continued. */
  readonly ended?: unknown;
}

/**
 * What an account may do with an offer now, and why. One answer for the offers page, the account
 * page and the checkout route, so that what a page offers is what the route allows:
 * - `buy`: a CONSUMABLE (units add up), or a NON_CONSUMABLE the account does not own;
 * - `subscribe`: `offer` is what to sell: the offer itself, or for a returning subscriber the
 *   offer it names in `onceTrialUsed` (no trial, the paid price); `trial` says whether the first
 *   period is free;
 * - `owned`: a NON_CONSUMABLE the account has: charging it again would take money for nothing;
 * - `subscribed`: a live subscription to the product (the spec: "a second payment must never be
 *   started to switch a subscriber between plans"); `actions` says what the page may offer;
 * - `pending`: a checkout of this product is open: continue it rather than start another;
 * - `unavailable`: the trial is used and the offer names no paid offer to sell instead.
 */
export type OfferStanding =
  | { readonly kind: 'buy'; readonly offer: OfferDefinition }
  | {
      readonly kind: 'subscribe';
      readonly offer: OfferDefinition;
      readonly trial: boolean;
      readonly reason: 'trial_available' | 'trial_used' | 'no_trial';
    }
  | { readonly kind: 'owned'; readonly entitlement: Entitlement }
  | {
      readonly kind: 'subscribed';
      readonly entitlement: Entitlement;
      readonly actions: SubscriptionActions;
    }
  | { readonly kind: 'pending'; readonly checkout: OpenCheckout }
  | { readonly kind: 'unavailable'; readonly reason: 'trial_used' };

export interface OfferStandingInput {
  readonly offer: OfferDefinition;
  /** The account's entitlement to the offer's product, if any. */
  readonly entitlement: Entitlement | undefined;
  /** The account's open checkouts (any product: those of other products are passed over). */
  readonly openCheckouts?: readonly OpenCheckout[];
  /** Finds the offer `onceTrialUsed` names (your `offers.get`). */
  readonly offerOf: (offerUid: string) => OfferDefinition | undefined;
  readonly now?: Date;
}

/**
 * The account's standing towards one offer. Pure: the checkout route asks it with the store's
 * record and the account's open checkouts, the pages with the same, so a page never shows a button
 * the route refuses.
 *
 * @example
 * const standing = offerStanding({ offer, entitlement, openCheckouts, offerOf: offers.get });
 * if (standing.kind === 'subscribed') showManageLink(standing.actions);
 */
export function offerStanding({
  offer,
  entitlement,
  openCheckouts = [],
  offerOf,
  now = new Date(),
}: OfferStandingInput): OfferStanding {
  const held = entitlement?.productUid === offer.productUid ? entitlement : undefined;
  if (offer.type === 'SUBSCRIPTION' && held !== undefined && isLiveSubscription(held)) {
    return { kind: 'subscribed', entitlement: held, actions: subscriptionActions(held) };
  }
  if (offer.type === 'NON_CONSUMABLE' && held !== undefined && hasAccess(held, now)) {
    return { kind: 'owned', entitlement: held };
  }
  const open = openCheckouts.find(
    (checkout) => checkout.productUid === offer.productUid && isStillOpen(checkout, now),
  );
  if (open !== undefined) return { kind: 'pending', checkout: open };
  if (offer.type !== 'SUBSCRIPTION') return { kind: 'buy', offer };
  if (offer.trialDays === 0) return { kind: 'subscribe', offer, trial: false, reason: 'no_trial' };
  if (!trialUsed(held)) return { kind: 'subscribe', offer, trial: true, reason: 'trial_available' };
  const paid = offer.onceTrialUsed === undefined ? undefined : offerOf(offer.onceTrialUsed);
  return paid === undefined
    ? { kind: 'unavailable', reason: 'trial_used' }
    : { kind: 'subscribe', offer: paid, trial: false, reason: 'trial_used' };
}

/**
 * The account subscribed to this product before: the service refuses a second trial of a product
 * (SUB-108). An entitlement that ever held a subscription keeps its uid after it ended.
 */
function trialUsed(entitlement: Entitlement | undefined): boolean {
  return entitlement?.type === 'SUBSCRIPTION' && entitlement.subscriptionUid !== null;
}

/** The checkout can still be continued: it has not ended, and the service has not expired it (or its expiry is unknown). */
export function isStillOpen(checkout: OpenCheckout, now: Date): boolean {
  if (checkout.ended !== undefined) return false;
  return checkout.expiresAt === undefined || now.getTime() < Date.parse(checkout.expiresAt);
}

export interface OfferStandingsInput extends Omit<OfferStandingInput, 'offer' | 'entitlement'> {
  /** The offers to answer for (a shop's listed offers, say). */
  readonly offers: readonly OfferDefinition[];
  /** The account's entitlements (store.listByAccount). */
  readonly entitlements: readonly Entitlement[];
}

/**
 * The account's standing towards each offer, by offerUid: what an offers page renders. Pure.
 *
 * @example
 * const standings = offerStandings({ offers: offers.listed, entitlements, openCheckouts, offerOf: offers.get });
 */
export function offerStandings({
  offers,
  entitlements,
  ...rest
}: OfferStandingsInput): ReadonlyMap<string, OfferStanding> {
  const byProduct = new Map(entitlements.map((entitlement) => [entitlement.productUid, entitlement]));
  return new Map(
    offers.map((offer) => [
      offer.offerUid,
      offerStanding({ ...rest, offer, entitlement: byProduct.get(offer.productUid) }),
    ]),
  );
}
