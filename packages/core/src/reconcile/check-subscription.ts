import { hasAccess } from '../access/has-access.js';
import { applySubscriptionRead } from '../apply/apply-subscription-read.js';
import { runAccessListeners } from '../apply/listeners.js';
import { subscriptionReadEvent } from '../apply/subscription-read-event.js';
import type { Entitlement } from '../schemas/entitlement.js';
import { type CheckContext, type CheckResult, sameRecord } from './check-context.js';
import { readPolitely } from './read-politely.js';
import type { CheckReason, ReconcileChange } from './reconcile-report.js';

/**
 * Confirms one due subscription entitlement: reads the subscription and applies it through the
 * same rules as its webhooks, as a read (stamped with the time the request went out, so a real
 * event that happened later still wins when it is replayed), then notes that it was confirmed.
 */
export async function checkSubscription(
  entitlement: Entitlement,
  reason: CheckReason,
  context: CheckContext,
): Promise<CheckResult> {
  const { client, store, offers, budget } = context;
  const subscriptionUid = entitlement.subscriptionUid ?? '';
  const observedAt = context.now();
  const subscription = await readPolitely(budget, () =>
    client.subscriptions.retrieve(subscriptionUid, budget.signal ? { signal: budget.signal } : undefined),
  );
  const applied = await applySubscriptionRead(subscription, {
    store,
    offers,
    observedAt,
    recordHistory: context.recordHistory,
    recordFacts: context.recordFacts,
    historySource: 'reconcile',
  });
  const key = { accountKey: entitlement.accountKey, productUid: entitlement.productUid };
  await store.markReconciled(key, observedAt);
  const before = applied?.previous ?? entitlement;
  const after = applied?.next;
  if (after === undefined || sameRecord(before, after)) return { kind: 'unchanged' };

  const now = context.now();
  const hadAccess = hasAccess(before, now);
  const access = hadAccess === hasAccess(after, now) ? undefined : hadAccess ? 'revoked' : 'granted';
  const change: ReconcileChange = {
    ...key,
    reason,
    subscriptionUid,
    before,
    after,
    ...(access ? { access } : {}),
  };
  try {
    await runAccessListeners(context.on, access, {
      ...key,
      entitlement: after,
      event: subscriptionReadEvent(subscription, observedAt),
      source: 'reconciliation',
    });
  } catch (listenerError) {
    return { kind: 'changed', change, listenerError };
  }
  return { kind: 'changed', change };
}
