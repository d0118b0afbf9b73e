import { checkoutEndEntry, checkoutStartedEntry, type FunnelCheckout } from '../metrics/checkout-facts.js';
import type { Offers } from '../offers/define-offers.js';
import type { Payment } from '../schemas/payment.js';
import { isPaymentOpen, type PendingPaymentKeeper, settlePendingPayment } from './pending-payments.js';
import type { RecordFacts } from './record-facts.js';

/** What a part needs to put its checkouts in the funnel: the facts' recorder, and the offers for their currency. */
export interface FunnelFacts {
  readonly recordFacts: RecordFacts | undefined;
  readonly offers: Pick<Offers, 'get'>;
  /**
   * True when the facts go to a store that counts each key once: an ending then restates its
   * checkout's start, which adds nothing unless the start was never counted. Without such a store
   * the counters count what they are told, and a restated start would count twice.
   */
  readonly keepsFacts?: boolean;
}

/** The offer's currency: the daily totals are kept per currency ('XXX', ISO 4217's "no currency", for an offer no longer sold). */
const currencyOf = (offers: FunnelFacts['offers'], offerUid: string) =>
  offers.get(offerUid)?.price.currency ?? 'XXX';

/** The checkout route created a payment and recorded it as pending at `checkout.recordedAt`: it enters the funnel. */
export async function recordCheckoutStarted(funnel: FunnelFacts, checkout: FunnelCheckout): Promise<void> {
  await funnel.recordFacts?.([checkoutStartedEntry(checkout, currencyOf(funnel.offers, checkout.offerUid))]);
}

/** What settleCheckout is told of the payment, and how to learn the code of a failure that came without one. */
export interface SettledCheckout {
  readonly payment: Pick<Payment, 'paymentUid' | 'status'> &
    Partial<Pick<Payment, 'failureCode' | 'subscriberUid'>>;
  /** The account the payment is for, when known: its pending payments are where the checkout is found. */
  readonly accountKey: string | undefined;
  /**
   * Reads the payment's `failureCode` from the service (the webhook's `payment.failed` carries
   * none); called only for a checkout of the funnel that failed without one. A read that fails
   * leaves the failure without a code (`none`): a fact's detail is not worth a failed delivery.
   */
  readonly readFailureCode?: (() => Promise<string | undefined>) | undefined;
}

/**
 * Settles a pending payment (`settlePendingPayment`) and, when it is a checkout of the funnel (a
 * payment the kit recorded as pending, not ended yet), records how it ended, dated at its
 * `recordedAt` so that it counts in the bucket it started. With a store that keeps the facts, the
 * start is recorded again with it (it counts once): a start whose write failed at the checkout, or
 * that an earlier version never wrote, is not lost, and no ending outnumbers its starts. The facts go first, so that
 * a write that fails leaves the payment pending for the retry to settle. A payment the kit never
 * recorded (bought elsewhere) is not in the funnel.
 */
export async function settleCheckout(
  store: PendingPaymentKeeper,
  funnel: FunnelFacts,
  settled: SettledCheckout,
  now: Date,
): Promise<void> {
  let { payment } = settled;
  const checkout = await funnelCheckoutOf(store, funnel, settled);
  if (checkout !== undefined) {
    if (payment.status === 'FAILED' && payment.failureCode === undefined && settled.readFailureCode) {
      const failureCode = await settled.readFailureCode().catch(() => undefined);
      if (failureCode !== undefined) payment = { ...payment, failureCode };
    }
    const currency = currencyOf(funnel.offers, checkout.offerUid);
    const ended = checkoutEndEntry(checkout, payment, currency);
    const start = funnel.keepsFacts === true ? [checkoutStartedEntry(checkout, currency)] : [];
    await funnel.recordFacts?.([...start, ...(ended ? [ended] : [])]);
  }
  await settlePendingPayment(store, payment, now);
}

/** The pending payment of the account, when the funnel is recorded and the payment ends now. */
async function funnelCheckoutOf(
  store: PendingPaymentKeeper,
  funnel: FunnelFacts,
  { payment, accountKey }: SettledCheckout,
): Promise<FunnelCheckout | undefined> {
  if (funnel.recordFacts === undefined || accountKey === undefined || isPaymentOpen(payment.status)) {
    return undefined;
  }
  const pending = await store.listPendingPaymentsOfAccount?.(accountKey);
  return pending?.find((one) => one.paymentUid === payment.paymentUid && one.ended === undefined);
}
