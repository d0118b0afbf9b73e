import type { OfferDefinitionInput } from '../../schemas/offer.js';
import type { Payment } from '../../schemas/payment.js';
import type { WebhookEvent } from '../../schemas/webhook-event.js';
import type { Entitlement } from '../entitlement.js';
import { defineOffers, isOffers, type Offers } from '../offers/define-offers.js';
import { decide } from '../rules/decide.js';
import { hasId } from '../rules/sorted-ids.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { type AccountKeyOption, DEFAULT_ACCOUNT_KEY_FIELD, resolveAccountKey } from './account-key.js';
import { accessChange, runAccessListeners, type WebhookListeners } from './listeners.js';

export interface GrantFromPaymentOptions {
  store: EntitlementStore;
  offers: Offers | readonly OfferDefinitionInput[];
  /** As the webhook handler's option, so both find the same account. Default: metadata `accountKey`, else subscriberUid. */
  accountKey?: AccountKeyOption;
  /** `accessGranted` runs when this grant starts access (the later webhook then finds access already on). */
  on?: Pick<WebhookListeners, 'accessGranted'>;
  now?: () => Date;
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
}

/**
 * Applies a payment read server-side (`GET /v1/payments/{uid}`, the synchronous source of truth)
 * when it is SUCCEEDED, so the return page can grant before the webhook lands. Never pass what the
 * return URL's query string says. The later payment.succeeded webhook for the same payment is then
 * a no-op: no second consumable unit, no status change.
 *
 * @example
 * const payment = await client.payments.retrieve(req.query.paymentUid);
 * const { entitlement } = await handler.grantFromPayment(payment);
 * res.render(hasAccess(entitlement) ? 'thanks' : 'waiting');
 */
export async function grantFromPayment(
  payment: Payment,
  options: GrantFromPaymentOptions,
): Promise<GrantResult> {
  const { store, on = {}, now = () => new Date() } = options;
  const offers = isOffers(options.offers) ? options.offers : defineOffers(options.offers);
  if (payment.status !== 'SUCCEEDED') return { outcome: 'not_succeeded', entitlement: undefined };
  const offer = offers.get(payment.offerUid);
  if (offer === undefined) return { outcome: 'unknown_offer', entitlement: undefined };
  const at = now();
  // The payment's success time is not on the payment: "now" is after it, so events that really
  // came later may be taken as older. Only a payment not yet applied is decided at all.
  const event: WebhookEvent = {
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
  const accountKey = resolveAccountKey(options.accountKey ?? DEFAULT_ACCOUNT_KEY_FIELD, event, true);
  if (accountKey === undefined) return { outcome: 'no_account', entitlement: undefined };
  const key = { accountKey, productUid: payment.productUid };
  const seen: { previous: Entitlement | undefined; alreadyApplied: boolean } = {
    previous: undefined,
    alreadyApplied: false,
  };
  const entitlement = await store.update(accountKey, payment.productUid, (current) => {
    seen.previous = current;
    seen.alreadyApplied = current !== undefined && hasId(current.paymentUids, payment.paymentUid);
    return seen.alreadyApplied ? undefined : decide(event, current, offer, key);
  });
  if (seen.alreadyApplied || entitlement === undefined) return { outcome: 'already_applied', entitlement };
  await runAccessListeners(on, accessChange(seen.previous, entitlement, event, at), {
    ...key,
    entitlement,
    event,
    source: 'payment_read',
  });
  return { outcome: 'granted', entitlement };
}
