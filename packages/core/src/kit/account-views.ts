import { isStillOpen, offerStandings } from '../access/offer-standing.js';
import type { PendingPaymentKeeper } from '../apply/pending-payments.js';
import type { Offers } from '../offers/define-offers.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { PendingPayment } from '../store/reconcile-store.js';
import { checkoutRecordOf } from './checkout-record.js';
import { endedPaymentsOf } from './ended-payments.js';
import type { DcbKit } from './kit-types.js';

/** What an account's pages read through the kit: its offers' standings, its open payments and those that did not finish. */
export function accountViews(
  store: EntitlementStore & PendingPaymentKeeper,
  offers: Offers,
  now: () => Date,
): Pick<DcbKit, 'offerStandings' | 'pendingPayments' | 'endedPayments' | 'checkoutRecord'> {
  const pendingOf = async (accountKey: string): Promise<PendingPayment[]> =>
    (await store.listPendingPaymentsOfAccount?.(accountKey)) ?? [];
  return {
    async offerStandings(accountKey) {
      const [entitlements, openCheckouts] = await Promise.all([
        store.listByAccount(accountKey),
        pendingOf(accountKey),
      ]);
      return offerStandings({
        offers: offers.listed,
        entitlements,
        openCheckouts,
        offerOf: offers.get,
        now: now(),
      });
    },
    async pendingPayments(accountKey) {
      const at = now();
      return (await pendingOf(accountKey)).filter((payment) => isStillOpen(payment, at));
    },
    async endedPayments(accountKey) {
      return endedPaymentsOf(await pendingOf(accountKey), now());
    },
    async checkoutRecord(query) {
      const accounts = [...new Set(query.accountKeys)];
      return checkoutRecordOf(query, await Promise.all(accounts.map(pendingOf)), now());
    },
  };
}
