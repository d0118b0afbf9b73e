import type { Entitlement } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { PaymentStatus } from '../schemas/payment.js';
import type { Subscription } from '../schemas/subscription.js';

/**
 * What the return page shows. `succeeded`: paid and granted; `pending`: consent given or still
 * open, wait for the webhook (or reload); `failed`: declined, expired or cancelled, offer a retry.
 */
export type ReturnState = 'succeeded' | 'pending' | 'failed';

/** What a partner route produces, for the adapter to write (as JSON, or through the app's renderer). */
export type RouteView =
  | {
      kind: 'checkout_embedded';
      paymentUid: string;
      /** Mount this in an iframe on your page; consent stays on the service's screens. */
      checkoutUrl: string;
      offer: OfferDefinition;
    }
  | {
      kind: 'return';
      /** This payment's outcome: thank the subscriber only for `succeeded`. */
      state: ReturnState;
      paymentUid: string;
      paymentStatus: PaymentStatus;
      /** `failed`: the service's code of why, when it says (PAY-101 insufficient balance, PAY-103 declined…). */
      failureCode: string | undefined;
      /**
       * `pending` at REQUIRES_ACTION (the subscriber came back without finishing): where to continue
       * it until `expiresAt`; offer that, and cancelling it, rather than wait.
       */
      continueUrl: string | undefined;
      expiresAt: string;
      /**
       * `failed` with SUB-108 (the line already had this product's trial, which the account's own
       * history could not show): the offer to sell instead (the offer's `onceTrialUsed`), with no
       * trial. Offer it with its price and period.
       */
      offerOnceTrialUsed: OfferDefinition | undefined;
      offer: OfferDefinition | undefined;
      entitlement: Entitlement | undefined;
      /**
       * Whether the account has access to the offer's product now, from this payment or an
       * earlier one (units of a day pass left from before a declined purchase, say). Not this
       * payment's outcome: that is `state`.
       */
      hasAccess: boolean;
    }
  | {
      /** A unit the account spent (spendUnit). */
      kind: 'unit_spent';
      productUid: string;
      entitlement: Entitlement | undefined;
      unitsLeft: number;
      /** A unit of an offer that sells time (`unitAccessSeconds`): when the access it opened ends; else null. */
      accessEndsAt: string | null;
    }
  | {
      /** A pending payment the account cancelled (cancelPayment). */
      kind: 'payment_canceled';
      paymentUid: string;
      offer: OfferDefinition | undefined;
    }
  | {
      kind: 'subscription';
      action: 'cancel' | 'resume';
      subscription: Subscription;
      entitlement: Entitlement | undefined;
      hasAccess: boolean;
    };

export type RouteResult =
  | { type: 'redirect'; status: 303; location: string }
  | { type: 'view'; status: number; view: RouteView };
