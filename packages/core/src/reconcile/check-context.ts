import type { AccountKeyOptions } from '../apply/account-key.js';
import type { RecordHistory } from '../apply/history-entry.js';
import type { WebhookListeners } from '../apply/listeners.js';
import type { RecordFacts } from '../apply/record-facts.js';
import type { DcbClient } from '../client/create-client.js';
import type { Offers } from '../offers/define-offers.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { ReconcileStore } from '../store/reconcile-store.js';
import type { ReadBudget } from './read-politely.js';
import type { ReconcileChange } from './reconcile-report.js';

/** What one check needs: shared by every check of a run. */
export interface CheckContext {
  client: Pick<DcbClient, 'payments' | 'subscriptions'>;
  store: EntitlementStore & ReconcileStore;
  offers: Offers;
  /** As the webhook handler's, so that a pending payment is granted to the same account. */
  accountKeys: AccountKeyOptions;
  on: Pick<WebhookListeners, 'accessGranted' | 'accessRevoked'>;
  now: () => Date;
  pendingMaxAgeMs: number;
  budget: ReadBudget;
  /** Appends each change to the entitlement's history; undefined when the store keeps none (or in a dry run). */
  recordHistory: RecordHistory | undefined;
  /** Records the business view's facts of each read; undefined in a dry run. */
  recordFacts: RecordFacts | undefined;
  /** Whether the facts go to the store, which counts each once (recordFacts may count them only). */
  keepsFacts: boolean;
}

/**
 * - `changed`: a read changed the entitlement (the listeners ran for any access change);
 * - `unchanged`: read, and the entitlement already said so;
 * - `settled`: a pending payment is settled and forgotten (`change` when settling it granted);
 * - `failed`: the read worked but cannot be applied (an offer missing from yours, say).
 */
export type CheckResult =
  | { kind: 'changed'; change: ReconcileChange; listenerError?: unknown }
  | { kind: 'unchanged' }
  | { kind: 'settled'; change?: ReconcileChange; listenerError?: unknown }
  | { kind: 'failed'; code: string; message: string };

/**
 * True when the two records say the same thing, by value: a store hands back fresh copies (so not
 * ===), and a SQL store's JSON column gives the keys in its own order (so not JSON.stringify).
 * Every field of an Entitlement is a string, a count or null, so field by field is exact.
 */
export function sameRecord(a: Entitlement | undefined, b: Entitlement | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  const fields = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof Entitlement>;
  for (const field of fields) if (a[field] !== b[field]) return false;
  return true;
}
