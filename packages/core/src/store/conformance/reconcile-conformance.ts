import assert from 'node:assert/strict';
import { duePageCheck } from './due-page-check.js';
import { uniqueId } from './example-entitlement.js';
import { at, cases, dueUnder, expectedDue, NOW, type ReconcilingStore, write } from './reconcile-cases.js';
import { type ConformanceCheck, type ConformanceOptions, runChecks } from './test-runner.js';

/** What every ReconcileStore must do; runReconcileConformance runs each as a test. */
export const reconcileChecks: readonly ConformanceCheck<ReconcilingStore>[] = [
  duePageCheck,
  {
    name: 'listDueEntitlements answers what dueReason says, in key order, page by page',
    async run(store) {
      const prefix = uniqueId('due');
      const entitlements = cases(prefix);
      // Written out of key order: a listing in insertion (or heap) order must not pass for sorted.
      await write(store, [...entitlements].reverse());
      for (const staleBefore of [null, new Date(at(-30))]) {
        const query = { now: NOW, staleBefore };
        const expected = expectedDue(prefix, entitlements, query);
        assert.ok(expected.length >= 5, 'the cases hold several due entitlements');
        assert.deepEqual(
          await dueUnder(store, prefix, query),
          expected,
          `staleBefore ${String(staleBefore)}`,
        );
        assert.deepEqual(await dueUnder(store, prefix, query, 100), expected, 'one large page');
      }
    },
  },
  {
    name: 'markReconciled makes an entitlement not due until its next date passes; updates keep it',
    async run(store) {
      const prefix = uniqueId('marked');
      const [ended] = cases(prefix);
      if (ended === undefined) throw new Error('no case');
      await write(store, [ended]);
      const key = { accountKey: ended.accountKey, productUid: ended.productUid };
      const query = { now: NOW, staleBefore: new Date(at(-30)) };
      assert.equal((await dueUnder(store, prefix, query)).length, 1, 'due before it is confirmed');
      await store.markReconciled(key, NOW);
      assert.deepEqual(await dueUnder(store, prefix, query), [], 'not due once confirmed');
      // An update that leaves the date behind the confirmation keeps it confirmed…
      await store.update(
        key.accountKey,
        key.productUid,
        (current) => current && { ...current, subscriberUid: 'sbr_2' },
      );
      assert.deepEqual(await dueUnder(store, prefix, query), [], 'an update keeps the confirmation');
      // …and a new date that passes after it makes it due again.
      await store.update(
        key.accountKey,
        key.productUid,
        (current) =>
          current && { ...current, status: 'PRE_CANCELED', cancelAt: at(3), currentPeriodEnd: at(3) },
      );
      assert.deepEqual(await dueUnder(store, prefix, query), [], 'the new date has not passed');
      assert.equal(
        (await dueUnder(store, prefix, { ...query, now: new Date(at(4)) })).length,
        1,
        'due again',
      );
    },
  },
  {
    name: 'pending payments: recorded once, listed in paymentUid order by page, removed',
    async run(store) {
      const prefix = uniqueId('pay');
      const uids = ['c', 'a', 'b'].map((suffix) => `${prefix}_${suffix}`);
      for (const paymentUid of uids) {
        await store.recordPendingPayment({
          paymentUid,
          accountKey: 'acct_1',
          productUid: 'prod_a',
          offerUid: 'off_a',
          recordedAt: '2030-01-01T00:00:00.000Z',
        });
      }
      await store.recordPendingPayment({
        paymentUid: `${prefix}_a`,
        accountKey: 'acct_2',
        productUid: 'prod_b',
        offerUid: 'off_b',
        recordedAt: '2030-02-01T00:00:00.000Z',
      });
      const mine = async () => {
        const page = await store.listPendingPayments({ after: prefix, limit: 1000 });
        return page.filter((payment) => payment.paymentUid.startsWith(prefix));
      };
      const listed = await mine();
      assert.deepEqual(
        listed.map((payment) => payment.paymentUid),
        [...uids].sort(),
      );
      assert.deepEqual(listed[0], {
        paymentUid: `${prefix}_a`,
        accountKey: 'acct_1',
        productUid: 'prod_a',
        offerUid: 'off_a',
        recordedAt: '2030-01-01T00:00:00.000Z',
      });
      const firstPage = await store.listPendingPayments({ after: prefix, limit: 2 });
      assert.deepEqual(
        firstPage.map((payment) => payment.paymentUid),
        [`${prefix}_a`, `${prefix}_b`],
      );
      await store.removePendingPayment(`${prefix}_b`);
      await store.removePendingPayment(`${prefix}_unknown`);
      assert.deepEqual(
        (await mine()).map((payment) => payment.paymentUid),
        [`${prefix}_a`, `${prefix}_c`],
      );
    },
  },
  {
    name: "pending payments of one account: its own only, with the checkout's URL, expiry and what the shop showed kept",
    async run(store) {
      const account = uniqueId('acct');
      const other = uniqueId('acct');
      const checkout = {
        paymentUid: `${uniqueId('pay')}_b`,
        accountKey: account,
        productUid: 'prod_a',
        offerUid: 'off_a',
        recordedAt: '2030-01-01T00:00:00.000Z',
        checkoutUrl: 'https://checkout.example/c/pay_b',
        expiresAt: '2030-01-01T00:15:00.000Z',
        // What the shop's page showed, in its own words (here Arabic, right to left).
        shown: {
          name: 'فتح كامل',
          price: '15.000 د.ت',
          period: 'مرة واحدة',
          language: 'ar',
          // The free trial it offered: its length and the first charge's date as the page said it.
          trial: { days: 14, firstCharge: '15 يناير 2030' },
          at: '2030-01-01T00:00:00.000Z',
        },
      };
      // One a return page recorded, with no URL or expiry: listed without them.
      const { checkoutUrl: _url, expiresAt: _expiry, shown: _shown, ...withoutCheckout } = checkout;
      const returned = {
        ...withoutCheckout,
        paymentUid: `${checkout.paymentUid.slice(0, -2)}_a`,
        productUid: 'prod_b',
      };
      await store.recordPendingPayment(checkout);
      await store.recordPendingPayment(returned);
      await store.recordPendingPayment({ ...checkout, paymentUid: uniqueId('pay'), accountKey: other });
      assert.deepEqual(await store.listPendingPaymentsOfAccount(account), [returned, checkout]);
      await store.removePendingPayment(checkout.paymentUid);
      assert.deepEqual(await store.listPendingPaymentsOfAccount(account), [returned]);
      assert.deepEqual(await store.listPendingPaymentsOfAccount(uniqueId('acct')), []);
    },
  },
  {
    name: 'ended pending payments (endPendingPayment, when the store has it): kept for the account with why and on which line, no longer read by reconciliation',
    async run(store) {
      const endPendingPayment = store.endPendingPayment?.bind(store);
      if (endPendingPayment === undefined) return;
      const account = uniqueId('acct');
      const prefix = uniqueId('pay');
      const payment = (suffix: string) => ({
        paymentUid: `${prefix}_${suffix}`,
        accountKey: account,
        productUid: 'prod_a',
        offerUid: 'off_a',
        recordedAt: '2030-01-01T00:00:00.000Z',
        expiresAt: '2030-01-01T00:15:00.000Z',
      });
      for (const suffix of ['a', 'b', 'c']) await store.recordPendingPayment(payment(suffix));
      await endPendingPayment(`${prefix}_a`, {
        status: 'FAILED',
        failureCode: 'CAT-109',
        at: '2030-01-01T00:05:00.000Z',
      });
      await endPendingPayment(`${prefix}_b`, { status: 'SUCCEEDED', at: '2030-01-01T00:10:00.000Z' });
      await endPendingPayment(`${prefix}_b`, { status: 'EXPIRED', at: '2030-01-01T00:20:00.000Z' });
      await endPendingPayment(`${prefix}_unknown`, { status: 'CANCELED', at: '2030-01-01T00:20:00.000Z' });
      const open = await store.listPendingPayments({ after: prefix, limit: 1000 });
      assert.deepEqual(
        open.filter((listed) => listed.paymentUid.startsWith(prefix)).map((listed) => listed.paymentUid),
        [`${prefix}_c`],
        'an ended payment is no longer read by reconciliation',
      );
      assert.deepEqual(await store.listPendingPaymentsOfAccount(account), [
        {
          ...payment('a'),
          ended: { status: 'FAILED', failureCode: 'CAT-109', at: '2030-01-01T00:05:00.000Z' },
        },
        { ...payment('b'), ended: { status: 'EXPIRED', at: '2030-01-01T00:10:00.000Z' } },
        payment('c'),
      ]);
      // A webhook said FAILED first (no code); the return page's read then gives the code; a
      // third report without one keeps it. The first time stays.
      // The line that consented (subscriberUid) is kept the same way: said once, never unsaid.
      await endPendingPayment(`${prefix}_c`, {
        status: 'FAILED',
        at: '2030-01-01T00:06:00.000Z',
        subscriberUid: 'sbr_line',
      });
      await endPendingPayment(`${prefix}_c`, {
        status: 'FAILED',
        failureCode: 'PAY-103',
        at: '2030-01-01T00:07:00.000Z',
      });
      await endPendingPayment(`${prefix}_c`, { status: 'FAILED', at: '2030-01-01T00:08:00.000Z' });
      const [, , third] = await store.listPendingPaymentsOfAccount(account);
      assert.deepEqual(third?.ended, {
        status: 'FAILED',
        failureCode: 'PAY-103',
        at: '2030-01-01T00:06:00.000Z',
        subscriberUid: 'sbr_line',
      });
      await store.removePendingPayment(`${prefix}_a`);
      assert.equal((await store.listPendingPaymentsOfAccount(account)).length, 2, 'removed, ended or not');
    },
  },
  {
    name: 'pruneEndedPayments (when the store has it): forgets the payments ended before the cut-off, never one not ended, and counts them',
    async run(store) {
      const endPendingPayment = store.endPendingPayment?.bind(store);
      const pruneEndedPayments = store.pruneEndedPayments?.bind(store);
      if (endPendingPayment === undefined || pruneEndedPayments === undefined) return;
      // Dates long before every other check's, so that the count is this check's alone; a first
      // prune clears what an interrupted earlier run of it left behind.
      const cutOff = new Date('2001-01-02T00:00:00.000Z');
      await pruneEndedPayments(cutOff);
      const account = uniqueId('acct');
      const prefix = uniqueId('pay');
      // All recorded long before the cut-off: only when they ended decides.
      const payment = (suffix: string) => ({
        paymentUid: `${prefix}_${suffix}`,
        accountKey: account,
        productUid: 'prod_a',
        offerUid: 'off_a',
        recordedAt: '2000-12-01T00:00:00.000Z',
      });
      for (const suffix of ['a', 'b', 'c', 'd', 'e']) await store.recordPendingPayment(payment(suffix));
      await endPendingPayment(`${prefix}_a`, {
        status: 'FAILED',
        failureCode: 'CAT-109',
        at: '2001-01-01T00:00:00.000Z',
      });
      await endPendingPayment(`${prefix}_b`, { status: 'SUCCEEDED', at: '2001-01-01T23:59:59.999Z' });
      await endPendingPayment(`${prefix}_c`, { status: 'EXPIRED', at: cutOff.toISOString() });
      await endPendingPayment(`${prefix}_d`, { status: 'CANCELED', at: '2001-01-03T00:00:00.000Z' });
      assert.equal(await pruneEndedPayments(cutOff), 2, 'the two ended before the cut-off, paid or not');
      assert.deepEqual(
        (await store.listPendingPaymentsOfAccount(account)).map((kept) => kept.paymentUid),
        [`${prefix}_c`, `${prefix}_d`, `${prefix}_e`],
        'one ended at the cut-off or later is kept, and one not ended however old',
      );
      const open = await store.listPendingPayments({ after: prefix, limit: 1000 });
      assert.deepEqual(
        open.filter((listed) => listed.paymentUid.startsWith(prefix)).map((listed) => listed.paymentUid),
        [`${prefix}_e`],
        'reconciliation still reads the one not ended',
      );
      assert.equal(await pruneEndedPayments(cutOff), 0, 'nothing left to prune');
    },
  },
  {
    name: 'tryLock grants a lock to one holder at a time, and again once released',
    async run(store) {
      const name = uniqueId('lock');
      const release = await store.tryLock(name);
      assert.ok(release, 'the first holder gets the lock');
      assert.equal(await store.tryLock(name), undefined, 'a second holder is refused while it is held');
      const other = await store.tryLock(uniqueId('lock'));
      assert.ok(other, 'another lock is independent');
      await other();
      await release();
      await release();
      const again = await store.tryLock(name);
      assert.ok(again, 'granted again once released');
      await again();
    },
  },
];

/**
 * The conformance suite of reconciliation's bookkeeping (ReconcileStore), for a store that keeps
 * it beside its entitlements: the due listing agrees with core's `dueReason` page by page, marks
 * survive updates, pending payments (ended ones and their pruning too, when the
 * store keeps them), the lock. Run it beside runStoreConformance.
 *
 * @example
 * import { describe, it } from 'node:test'; // or 'vitest'
 * import { runReconcileConformance } from '@dcbkit/core/store';
 * runReconcileConformance(() => myStore(pool), { name: 'myStore', describe, it });
 */
export function runReconcileConformance(
  factory: () => ReconcilingStore | Promise<ReconcilingStore>,
  options: ConformanceOptions<ReconcilingStore> = {},
): void {
  runChecks('runReconcileConformance', 'ReconcileStore conformance', reconcileChecks, factory, options);
}
