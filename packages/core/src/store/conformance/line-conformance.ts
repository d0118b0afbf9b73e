import assert from 'node:assert/strict';
import type { EntitlementStore } from '../entitlement-store.js';
import type { LineStore } from '../line-store.js';
import { exampleEntitlement, uniqueId } from './example-entitlement.js';
import { type ConformanceCheck, type ConformanceOptions, runChecks, same } from './test-runner.js';

type Subject = EntitlementStore & LineStore;

async function put(store: Subject, accountKey: string, productUid: string, fields: object = {}) {
  const entitlement = exampleEntitlement({
    accountKey,
    productUid,
    subscriptionUid: uniqueId('sub'),
    ...fields,
  });
  await store.update(accountKey, productUid, () => entitlement);
  return entitlement;
}

export const lineChecks: readonly ConformanceCheck<Subject>[] = [
  {
    name: "a line's entitlements come back across accounts, by account then product, whole",
    async run(store) {
      const line = uniqueId('sbr');
      const other = uniqueId('sbr');
      const [a, b] = [uniqueId('acct_a'), uniqueId('acct_b')].sort();
      const bPremium = await put(store, b ?? '', 'prod_premium', { subscriberUid: line });
      const aVideo = await put(store, a ?? '', 'prod_video', { subscriberUid: line, status: 'REVOKED' });
      const aPremium = await put(store, a ?? '', 'prod_premium', { subscriberUid: line });
      await put(store, a ?? '', 'prod_other_line', { subscriberUid: other });
      await put(store, b ?? '', 'prod_no_line', { subscriberUid: null, subscriptionUid: null });
      same(await store.listBySubscriberUid(line), [aPremium, aVideo, bPremium], 'the line');
      assert.equal((await store.listBySubscriberUid(other)).length, 1, 'the other line');
    },
  },
  {
    name: 'a line never seen answers empty',
    async run(store) {
      assert.deepStrictEqual(await store.listBySubscriberUid(uniqueId('sbr_unknown')), []);
    },
  },
  {
    name: 'an entitlement that changes line leaves the old one, and one with no line is on none',
    async run(store) {
      const [first, second] = [uniqueId('sbr'), uniqueId('sbr')];
      const account = uniqueId('acct');
      const held = await put(store, account, 'prod_premium', { subscriberUid: first });
      const moved = { ...held, subscriberUid: second, lastEventAt: '2026-11-22T12:00:00.000Z' };
      await store.update(account, 'prod_premium', () => moved);
      assert.deepStrictEqual(await store.listBySubscriberUid(first), [], 'the line it left');
      same(await store.listBySubscriberUid(second), [moved], 'the line it is on');
      await store.update(account, 'prod_premium', (current) =>
        current === undefined ? undefined : { ...current, subscriberUid: null },
      );
      assert.deepStrictEqual(await store.listBySubscriberUid(second), [], 'no line');
    },
  },
];

/**
 * Registers the LineStore checks (`listBySubscriberUid`) with your test runner, each on a fresh
 * store from `factory` (a shared database is fine: every check uses ids of its own).
 *
 * @example
 * runLineConformance(() => myStore, { name: 'myStore', describe, it });
 */
export function runLineConformance(
  factory: () => Subject | Promise<Subject>,
  options: ConformanceOptions<Subject> = {},
): void {
  runChecks('runLineConformance', 'LineStore conformance', lineChecks, factory, options);
}
