import assert from 'node:assert/strict';
import { dueReason } from '../../access/reconcile-deadline.js';
import type { Entitlement, EntitlementKey } from '../../schemas/entitlement.js';
import type { EntitlementStore } from '../entitlement-store.js';
import type { DueEntitlementsQuery, ReconcileStore } from '../reconcile-store.js';
import { exampleEntitlement, uniqueId } from './example-entitlement.js';

// The entitlements and walks the reconcile checks share (reconcile-conformance.ts).

/** A store that keeps reconciliation's bookkeeping beside the entitlements, as both built-in stores do. */
export type ReconcilingStore = EntitlementStore & ReconcileStore;

export const NOW = new Date('2030-06-01T00:00:00.000Z');
export const at = (days: number) => new Date(NOW.getTime() + days * 86_400_000).toISOString();

/** Every due entitlement of the accounts under `prefix`, paging `limit` at a time from the prefix on. */
export async function dueUnder(
  store: ReconcilingStore,
  prefix: string,
  query: Omit<DueEntitlementsQuery, 'limit' | 'after'>,
  limit = 2,
): Promise<string[]> {
  const found: string[] = [];
  let after: EntitlementKey = { accountKey: prefix, productUid: '' };
  for (;;) {
    const page = await store.listDueEntitlements({ ...query, after, limit });
    assert.ok(page.length <= limit, 'a page holds at most limit entitlements');
    for (const entitlement of page) {
      if (!entitlement.accountKey.startsWith(prefix)) return found;
      found.push(`${entitlement.accountKey.slice(prefix.length)}:${entitlement.productUid}`);
    }
    const last = page.at(-1);
    if (page.length < limit || last === undefined) return found;
    after = { accountKey: last.accountKey, productUid: last.productUid };
  }
}

/** Entitlements of every kind reconciliation tells apart, under the accounts `${prefix}/…`. */
export function cases(prefix: string): Entitlement[] {
  const sub = (account: string, fields: Partial<Entitlement>) =>
    exampleEntitlement({
      accountKey: `${prefix}/${account}`,
      productUid: 'prod_premium',
      subscriptionUid: uniqueId('sub'),
      trialEndsAt: null,
      lastEventAt: at(-40),
      ...fields,
    });
  return [
    sub('a_trial_ended', { status: 'TRIALING', trialEndsAt: at(-1), currentPeriodEnd: at(-1) }),
    sub('b_active_future', { status: 'ACTIVE', currentPeriodEnd: at(20), lastEventAt: at(-1) }),
    sub('c_active_heard_since', { status: 'ACTIVE', currentPeriodEnd: at(-5), lastEventAt: at(-2) }),
    sub('d_active_period_ended', { status: 'ACTIVE', currentPeriodEnd: at(-5), lastEventAt: at(-35) }),
    sub('e_pre_canceled', { status: 'PRE_CANCELED', cancelAt: at(-1), currentPeriodEnd: at(-1) }),
    sub('f_grace_ended', { status: 'IN_GRACE', graceEndsAt: at(-1), currentPeriodEnd: at(-4) }),
    sub('g_grace_no_access', { status: 'IN_GRACE', graceEndsAt: null, currentPeriodEnd: at(-4) }),
    sub('h_revoked', { status: 'REVOKED', currentPeriodEnd: at(-5) }),
    sub('i_old_but_running', { status: 'ACTIVE', currentPeriodEnd: at(5), lastEventAt: at(-40) }),
    sub('j_no_subscription_uid', { status: 'ACTIVE', subscriptionUid: null, currentPeriodEnd: at(-5) }),
    sub('k_never_heard', { status: 'ACTIVE', currentPeriodEnd: at(5), lastEventAt: null }),
    exampleEntitlement({
      accountKey: `${prefix}/l_consumable`,
      productUid: 'prod_units',
      type: 'CONSUMABLE',
      subscriptionUid: null,
      currentPeriodEnd: null,
      trialEndsAt: null,
      unitsBought: 1,
    }),
    sub('m_second_product', { productUid: 'prod_extra', status: 'ACTIVE', currentPeriodEnd: at(-3) }),
  ];
}

export async function write(store: ReconcilingStore, entitlements: Entitlement[]): Promise<void> {
  for (const entitlement of entitlements) {
    await store.update(entitlement.accountKey, entitlement.productUid, () => entitlement);
  }
}

export function expectedDue(
  prefix: string,
  entitlements: Entitlement[],
  query: Omit<DueEntitlementsQuery, 'limit'>,
) {
  return entitlements
    .filter((entitlement) => dueReason(entitlement, null, query) !== undefined)
    .map((entitlement) => `${entitlement.accountKey.slice(prefix.length)}:${entitlement.productUid}`)
    .sort();
}

/** Every due entitlement of the accounts under `prefix`, walking listDuePage over the whole pass. */
export async function duePagesUnder(
  listDuePage: NonNullable<ReconcileStore['listDuePage']>,
  prefix: string,
  query: Omit<DueEntitlementsQuery, 'limit' | 'after'>,
  limit: number,
): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | undefined;
  // Bounded: a store whose cursor never ends fails here rather than hanging the suite.
  for (let page = 0; page < 100_000; page++) {
    const answer = await listDuePage({ ...query, ...(cursor === undefined ? {} : { cursor }), limit });
    assert.ok(answer.entitlements.length <= limit, 'a page holds at most limit entitlements');
    for (const entitlement of answer.entitlements) {
      if (entitlement.accountKey.startsWith(prefix))
        found.push(`${entitlement.accountKey.slice(prefix.length)}:${entitlement.productUid}`);
    }
    if (answer.cursor === undefined) return found;
    cursor = answer.cursor;
  }
  throw new assert.AssertionError({ message: 'listDuePage never answered its last page' });
}
