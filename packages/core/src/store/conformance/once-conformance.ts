import assert from 'node:assert/strict';
import type { MetricEntry } from '../../metrics/metric-entry.js';
import type { EntitlementStore } from '../entitlement-store.js';
import { type HistoryStore, isHistoryStore } from '../history-store.js';
import { isMetricsStore, type MetricsStore } from '../metrics-store.js';
import type { OnceStore } from '../once-store.js';
import { exampleEntitlement, uniqueId } from './example-entitlement.js';
import { type ConformanceCheck, type ConformanceOptions, runChecks } from './test-runner.js';

type Bound = EntitlementStore & Partial<HistoryStore>;
type Subject = OnceStore<Bound> & Bound;

const TIMEOUT = { timeoutMs: 5_000 };

/** Writes one entitlement of `accountKey` through the transaction `tx`. */
async function writeOne(tx: Bound, accountKey: string): Promise<void> {
  await tx.update(accountKey, 'prod_once', () => exampleEntitlement({ accountKey, productUid: 'prod_once' }));
}

/** A business fact of `offerUid`, unique per check. */
function factOf(offerUid: string): MetricEntry {
  return {
    key: uniqueId('fact'),
    kind: 'unit_sold',
    offerUid,
    productUid: 'prod_once',
    occurredAt: '2030-07-01T10:00:00.000Z',
    count: 1,
    amount: 2000,
    currency: 'TND',
    live: 0,
  };
}

/** The count the store holds for the facts of `offerUid`. */
async function countOf(store: MetricsStore, offerUid: string): Promise<number> {
  const { days } = await store.readMetricDays({ from: '2030-07-01', to: '2030-07-02' });
  return days.filter((day) => day.offerUid === offerUid).reduce((sum, day) => sum + day.count, 0);
}

/** Runs `applyOnce` whose work writes one entitlement through the transaction; counts the runs. */
async function grantOnce(store: Subject, key: string, accountKey: string, runs: { count: number }) {
  return store.applyOnce(
    key,
    async (tx) => {
      runs.count++;
      await writeOne(tx, accountKey);
      return { keep: true, value: 'granted', target: { accountKey, productUid: 'prod_once' } };
    },
    TIMEOUT,
  );
}

export const onceChecks: readonly ConformanceCheck<Subject>[] = [
  {
    name: "an event's work commits with its key; a second delivery of the key is a duplicate and does not run it",
    async run(store) {
      const key = uniqueId('evt');
      const account = uniqueId('acct');
      const runs = { count: 0 };
      const first = await grantOnce(store, key, account, runs);
      assert.equal(first.status, 'applied');
      assert.ok(await store.get(account, 'prod_once'), 'the write is committed');
      assert.equal((await grantOnce(store, key, account, runs)).status, 'duplicate');
      assert.equal(runs.count, 1, 'work ran once');
    },
  },
  {
    name: 'work that answers keep: false leaves nothing, and the key is processed on its next delivery',
    async run(store) {
      const key = uniqueId('evt');
      const account = uniqueId('acct');
      const rolledBack = await store.applyOnce(
        key,
        async (tx) => {
          await writeOne(tx, account);
          return { keep: false, value: 'later' };
        },
        TIMEOUT,
      );
      assert.deepStrictEqual(rolledBack, { status: 'rolled_back', value: 'later' });
      assert.equal(await store.get(account, 'prod_once'), undefined, 'nothing written stays');
      const runs = { count: 0 };
      assert.equal((await grantOnce(store, key, account, runs)).status, 'applied', 'the key is free');
    },
  },
  {
    name: 'a crash before the commit (work throws after writing) leaves nothing behind: the retry is processed',
    async run(store) {
      const key = uniqueId('evt');
      const account = uniqueId('acct');
      const crash = new Error('crashed before the commit');
      await assert.rejects(
        store.applyOnce(
          key,
          async (tx) => {
            await writeOne(tx, account);
            throw crash;
          },
          TIMEOUT,
        ),
        (error) => error === crash,
        'the error comes back as thrown',
      );
      assert.equal(await store.get(account, 'prod_once'), undefined, 'nothing written stays');
      const runs = { count: 0 };
      assert.equal((await grantOnce(store, key, account, runs)).status, 'applied', 'the key is free');
      assert.equal(runs.count, 1);
    },
  },
  {
    name: 'two deliveries of one key at once: one effect, the other a duplicate (or in progress), never two',
    async run(store) {
      const key = uniqueId('evt');
      const account = uniqueId('acct');
      const runs = { count: 0 };
      // The first holds its transaction a while, so that the second arrives while it is open.
      const slow = store.applyOnce(
        key,
        async (tx) => {
          runs.count++;
          await writeOne(tx, account);
          await new Promise((resolve) => setTimeout(resolve, 150));
          return { keep: true, value: 'first' };
        },
        TIMEOUT,
      );
      await new Promise((resolve) => setTimeout(resolve, 30));
      const results = await Promise.all([slow, grantOnce(store, key, account, runs)]);
      const statuses = results.map((result) => result.status);
      assert.equal(statuses.filter((status) => status === 'applied').length, 1, `one applied: ${statuses}`);
      assert.ok(
        statuses.every(
          (status) => status === 'applied' || status === 'duplicate' || status === 'in_progress',
        ),
        `the other a duplicate or in progress: ${statuses}`,
      );
      assert.equal(runs.count, 1, 'work committed once');
    },
  },
  {
    name: "reopen forgets the key applyOnce committed with that token (not another token's), so the next delivery runs again",
    async run(store) {
      const key = uniqueId('evt');
      const account = uniqueId('acct');
      const runs = { count: 0 };
      const first = await grantOnce(store, key, account, runs);
      assert.equal(first.status, 'applied');
      if (first.status !== 'applied') return;
      await store.reopen(key, 'not-its-token');
      assert.equal(
        (await grantOnce(store, key, account, runs)).status,
        'duplicate',
        'another token reopens nothing',
      );
      await store.reopen(key, first.token);
      assert.equal((await grantOnce(store, key, account, runs)).status, 'applied', 'reopened');
      assert.equal(runs.count, 2);
    },
  },
  {
    name: "a duplicate given its entry is in the history of the entitlement its key was applied to, with that entitlement's status",
    async run(store) {
      if (!isHistoryStore(store)) return;
      const key = uniqueId('evt');
      const account = uniqueId('acct');
      await grantOnce(store, key, account, { count: 0 });
      const before = Date.now();
      const entry = {
        eventName: 'payment.succeeded',
        eventKey: key,
        occurredAt: '2026-11-20T10:00:00.000Z',
        paymentUid: uniqueId('pay'),
        subscriptionUid: null,
      };
      const again = await store.applyOnce(key, async () => ({ keep: true, value: 'ran' }), {
        ...TIMEOUT,
        duplicate: entry,
      });
      assert.equal(again.status, 'duplicate');
      const [copy] = await store.listHistory({ accountKey: account, limit: 10 });
      const held = await store.get(account, 'prod_once');
      const recordedAt = Date.parse(copy?.recordedAt ?? '');
      // The store's clock and this process's may differ a little (a database server's).
      assert.ok(Math.abs(recordedAt - before) < 60_000, `recorded now: ${copy?.recordedAt}`);
      assert.deepStrictEqual(copy && { ...copy, recordedAt: 'now' }, {
        ...entry,
        recordedAt: 'now',
        accountKey: account,
        productUid: 'prod_once',
        source: 'webhook',
        decision: 'duplicate',
        subscriptionUid: held?.subscriptionUid ?? null,
        statusBefore: held?.status ?? null,
        statusAfter: held?.status ?? null,
        unitsBefore: null,
        unitsAfter: null,
      });
    },
  },
  {
    name: "two events of one line at once: the second's work runs once the first committed, and sees its write",
    async run(store) {
      const line = uniqueId('sbr');
      const [first, second] = [uniqueId('acct'), uniqueId('acct')];
      const slow = store.applyOnce(
        uniqueId('evt'),
        async (tx) => {
          await writeOne(tx, first);
          await new Promise((resolve) => setTimeout(resolve, 150));
          return { keep: true, value: 'first' };
        },
        { ...TIMEOUT, line },
      );
      await new Promise((resolve) => setTimeout(resolve, 30));
      const next = store.applyOnce(
        uniqueId('evt'),
        async (tx) => {
          const seen = await tx.get(first, 'prod_once');
          await writeOne(tx, second);
          return { keep: true, value: seen !== undefined };
        },
        { ...TIMEOUT, line },
      );
      const results = await Promise.all([slow, next]);
      assert.deepStrictEqual(
        results.map((result) => result.status),
        ['applied', 'applied'],
      );
      assert.equal(
        results[1]?.status === 'applied' && results[1].value,
        true,
        "the second saw the first's write",
      );
    },
  },
  {
    name: "a MetricsStore records the work's facts with the commit, each key once, and none when the work rolls back",
    async run(store) {
      if (!isMetricsStore(store)) return;
      const offer = uniqueId('offer');
      const [sold, other, dropped] = [factOf(offer), factOf(offer), factOf(offer)];
      const work = (keep: boolean, facts: readonly MetricEntry[]) => async (tx: Bound) => {
        await writeOne(tx, uniqueId('acct'));
        return { keep, value: 'ran', facts };
      };
      const first = await store.applyOnce(uniqueId('evt'), work(true, [sold]), TIMEOUT);
      assert.equal(first.status, 'applied');
      assert.deepStrictEqual(first.status === 'applied' && first.counted, [sold], 'its fact counted');
      const second = await store.applyOnce(uniqueId('evt'), work(true, [sold, other]), TIMEOUT);
      assert.deepStrictEqual(
        second.status === 'applied' && second.counted,
        [other],
        'a fact another event recorded counts once',
      );
      const rolledBack = await store.applyOnce(uniqueId('evt'), work(false, [dropped]), TIMEOUT);
      assert.equal(rolledBack.status, 'rolled_back');
      assert.equal(await countOf(store, offer), 2, 'the totals hold the two facts kept');
      assert.deepStrictEqual(
        await store.recordMetrics([dropped]),
        [dropped],
        'a rolled-back fact was never kept',
      );
    },
  },
];

/**
 * Registers the OnceStore checks (`applyOnce`, `reopen`: one transaction per event) with your
 * test runner, each on a fresh store from `factory`. The concurrency check needs a store that runs
 * two transactions at once (a pool), or one that runs them one after the other (PGlite): both pass.
 *
 * @example
 * runOnceConformance(() => sqlStore.store, { name: 'postgresStore', describe, it });
 */
export function runOnceConformance(
  factory: () => Subject | Promise<Subject>,
  options: ConformanceOptions<Subject> = {},
): void {
  runChecks('runOnceConformance', 'OnceStore conformance', onceChecks, factory, options);
}
