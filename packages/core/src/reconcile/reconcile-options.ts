import type { AccountKeyOptions } from '../apply/account-key.js';
import type { WebhookListeners } from '../apply/listeners.js';
import type { DcbClient } from '../client/create-client.js';
import { optionError } from '../errors/option-error.js';
import type { DcbLogger } from '../observability/logger.js';
import type { Offers } from '../offers/define-offers.js';
import type { OfferDefinitionInput } from '../schemas/offer.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { missingReconcileMethods, type ReconcileStore } from '../store/reconcile-store.js';
import type { Sleep } from './rate-limit-gate.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** What a run may change; the kit fills in the rest (`kit.reconcile(options)`). */
export interface ReconcileRunOptions {
  /**
   * A live subscription not heard of (event, read or reconciliation) for this long is read even
   * if no date of it has passed: this is what finds a missed immediate cancellation before the
   * period ends. Null: only passed dates make entitlements due. Default 7 days.
   */
  maxAgeMs?: number | null;
  /** Reads in flight at once. Default 4. */
  concurrency?: number;
  /** Entitlements fetched from the store per page. Default 100. */
  pageSize?: number;
  /** Stop after this many checks (the rest wait for the next run). Default: no limit. */
  maxChecks?: number;
  /** Read the payments return pages left pending. Default true. */
  pendingPayments?: boolean;
  /** A pending payment recorded longer ago than this, still not settled, is given up. Default 7 days. */
  pendingMaxAgeMs?: number;
  /** SEC-001 pauses per run before it stops (`stopped: 'rate_limited'`). Default 10. */
  maxRateLimitWaits?: number;
  /** The longest single pause, whatever Retry-After says; longer asks stop the run. Default 60 000 ms. */
  maxRetryAfterMs?: number;
  /** Stops the run cleanly: no new read starts, reads in flight are aborted, the report says `stopped: 'aborted'`. */
  signal?: AbortSignal;
  /** How the run waits for Retry-After. Default: a timer. Tests on a frozen sandbox clock advance it here. */
  sleep?: Sleep;
  /**
   * Read and decide, but change nothing: no entitlement written, nothing marked reconciled or
   * forgotten, no listener run, no history. The report lists what a real run would change.
   */
  dryRun?: boolean;
  /**
   * Only this account, now: each of its entitlements with a subscription is read whether due or
   * not (reason `requested`), and its pending payments. For an operator's "reconcile this account".
   */
  accountKey?: string;
}

export interface ReconcileOptions extends ReconcileRunOptions, AccountKeyOptions {
  client: Pick<DcbClient, 'payments' | 'subscriptions'>;
  /** The entitlements, and reconciliation's bookkeeping beside them (memoryStore and @dcbkit/store-postgres keep both). */
  store: EntitlementStore & ReconcileStore;
  offers: Offers | readonly OfferDefinitionInput[];
  /** accessGranted and accessRevoked run for access a read started or ended (`source: 'reconciliation'`). */
  on?: Pick<WebhookListeners, 'accessGranted' | 'accessRevoked'>;
  logger?: DcbLogger;
  /** The clock deciding what is due and stamping reads. Default: the real time. */
  now?: () => Date;
  /** Record every change in the store's history, when it keeps one. Default true. */
  history?: boolean;
  /** Record the business view's facts of what the reads found, when the store keeps them. Default true. */
  metrics?: boolean;
}

export interface ResolvedRunOptions {
  maxAgeMs: number | null;
  concurrency: number;
  pageSize: number;
  maxChecks: number;
  pendingPayments: boolean;
  pendingMaxAgeMs: number;
  maxRateLimitWaits: number;
  maxRetryAfterMs: number;
  dryRun: boolean;
  accountKey: string | undefined;
}

/** Checks the numbers before anything is read, and fills in the defaults. */
export function resolveRunOptions(options: ReconcileRunOptions): ResolvedRunOptions {
  const where = 'reconcile';
  const whole = (name: keyof ReconcileRunOptions, value: number | undefined, fallback: number, min = 1) => {
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value < min) {
      throw optionError(where, name, `must be a whole number >= ${min}, got ${String(value)}.`);
    }
    return value;
  };
  if (options.maxAgeMs !== undefined && options.maxAgeMs !== null) whole('maxAgeMs', options.maxAgeMs, 0, 0);
  if (options.pendingPayments !== undefined && typeof options.pendingPayments !== 'boolean') {
    throw optionError(where, 'pendingPayments', 'must be true or false.');
  }
  return {
    maxAgeMs: options.maxAgeMs === undefined ? 7 * DAY_MS : options.maxAgeMs,
    concurrency: whole('concurrency', options.concurrency, 4),
    pageSize: whole('pageSize', options.pageSize, 100),
    maxChecks: whole('maxChecks', options.maxChecks, Number.MAX_SAFE_INTEGER),
    pendingPayments: options.pendingPayments ?? true,
    pendingMaxAgeMs: whole('pendingMaxAgeMs', options.pendingMaxAgeMs, 7 * DAY_MS),
    maxRateLimitWaits: whole('maxRateLimitWaits', options.maxRateLimitWaits, 10, 0),
    maxRetryAfterMs: whole('maxRetryAfterMs', options.maxRetryAfterMs, 60_000, 0),
    dryRun: options.dryRun === true,
    accountKey: accountKeyOf(options.accountKey),
  };
}

function accountKeyOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '')
    throw optionError('reconcile', 'accountKey', 'must be a non-empty string.');
  return value;
}

/** The store methods a run needs; reconcile refuses a store without them before reading anything. */
export function requireReconcileStore(
  store: EntitlementStore,
  where = 'reconcile',
): asserts store is EntitlementStore & ReconcileStore {
  const lacking = missingReconcileMethods(store);
  if (lacking.length > 0) {
    throw optionError(
      where,
      'store',
      `lacks ${lacking.join(', ')}: reconciliation keeps its bookkeeping beside the entitlements ` +
        '(the ReconcileStore interface, docs/reconcile.md; memoryStore and @dcbkit/store-postgres have it).',
    );
  }
}
