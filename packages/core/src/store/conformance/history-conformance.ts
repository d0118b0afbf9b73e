import assert from 'node:assert/strict';
import type { HistoryEntry, HistoryStore } from '../history-store.js';
import { uniqueId } from './example-entitlement.js';
import { type ConformanceCheck, type ConformanceOptions, runChecks } from './test-runner.js';

const T0 = Date.parse('2030-06-01T00:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/** A history entry of `accountKey`, recorded `minutes` after T0, every field filled in. */
function entry(accountKey: string, minutes: number, fields: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    recordedAt: at(minutes),
    accountKey,
    productUid: 'prod_premium',
    source: 'webhook',
    decision: 'applied',
    eventName: 'payment.succeeded',
    eventKey: uniqueId('evt'),
    occurredAt: at(minutes - 1),
    paymentUid: uniqueId('pay'),
    subscriptionUid: uniqueId('sub'),
    statusBefore: null,
    statusAfter: 'ACTIVE',
    unitsBefore: null,
    unitsAfter: null,
    ...fields,
  };
}

/** As a store hands it back: JSON equality, key order aside. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

export const historyChecks: readonly ConformanceCheck<HistoryStore>[] = [
  {
    name: 'an appended entry comes back as written, every field kept',
    async run(store) {
      const account = uniqueId('hist');
      const written = entry(account, 0, {
        source: 'unit_spent',
        decision: 'applied',
        eventName: null,
        eventKey: null,
        occurredAt: null,
        paymentUid: null,
        statusBefore: 'ACTIVE',
        unitsBefore: 3,
        unitsAfter: 2,
      });
      await store.appendHistory(written);
      assert.deepStrictEqual(plain(await store.listHistory({ accountKey: account, limit: 10 })), [
        plain(written),
      ]);
    },
  },
  {
    name: 'listHistory gives the account’s entries newest first, at most limit, of one product when asked',
    async run(store) {
      const account = uniqueId('hist');
      const other = uniqueId('hist');
      const entries = [
        entry(account, 1),
        entry(other, 2),
        entry(account, 3, { productUid: 'prod_extra', decision: 'stale' }),
        entry(account, 4, { decision: 'duplicate' }),
        entry(account, 5, { source: 'reconcile', decision: 'unchanged' }),
      ];
      for (const written of entries) await store.appendHistory(written);
      const keys = (list: HistoryEntry[]) => list.map((found) => found.eventKey);
      const mine = entries.filter((written) => written.accountKey === account).reverse();
      assert.deepStrictEqual(keys(await store.listHistory({ accountKey: account, limit: 10 })), keys(mine));
      assert.deepStrictEqual(
        keys(await store.listHistory({ accountKey: account, limit: 2 })),
        keys(mine.slice(0, 2)),
      );
      assert.deepStrictEqual(
        keys(await store.listHistory({ accountKey: account, productUid: 'prod_extra', limit: 10 })),
        keys(mine.filter((written) => written.productUid === 'prod_extra')),
      );
      assert.deepStrictEqual(await store.listHistory({ accountKey: uniqueId('nobody'), limit: 10 }), []);
      const recent = await store.listHistory({ limit: 3 });
      assert.deepStrictEqual(
        keys(recent),
        keys([...entries].reverse().slice(0, 3)),
        'without an account: everyone’s, newest first',
      );
    },
  },
  {
    name: 'entries recorded in the same millisecond keep the order they were appended in',
    async run(store) {
      const account = uniqueId('hist');
      const same = [entry(account, 7), entry(account, 7), entry(account, 7)];
      for (const written of same) await store.appendHistory(written);
      const listed = await store.listHistory({ accountKey: account, limit: 10 });
      assert.deepStrictEqual(
        listed.map((found) => found.eventKey),
        same.map((written) => written.eventKey).reverse(),
      );
    },
  },
  {
    name: 'pruneHistory removes what was recorded before the date, and says how many',
    async run(store) {
      const account = uniqueId('hist');
      for (const minutes of [10, 20, 30]) await store.appendHistory(entry(account, minutes));
      const removed = await store.pruneHistory(new Date(at(20)));
      assert.ok(removed >= 1, `at least the entry of this account recorded before the date, got ${removed}`);
      const left = await store.listHistory({ accountKey: account, limit: 10 });
      assert.deepStrictEqual(
        left.map((found) => found.recordedAt),
        [at(30), at(20)],
        'the entries recorded at or after the date stay',
      );
    },
  },
];

/**
 * Registers the HistoryStore checks, each on a fresh store from `factory` (a store may share one
 * database across checks: every check writes its own accounts). Pass `describe` and `it` from
 * your test runner, or use its globals.
 *
 * @example
 * runHistoryConformance(() => myStore(), { name: 'myStore', describe, it });
 */
export function runHistoryConformance(
  factory: () => HistoryStore | Promise<HistoryStore>,
  options: ConformanceOptions<HistoryStore> = {},
): void {
  runChecks('runHistoryConformance', 'HistoryStore conformance', historyChecks, factory, options);
}
