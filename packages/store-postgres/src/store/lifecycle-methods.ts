import {
  type LifecycleStore,
  type LifecycleTime,
  mergeLifecycles,
  type SubscriptionLifecycle,
} from '@dcbkit/core/store';
import type { SqlExecutor, SqlQueryable } from '../executor/sql-executor.js';
import { lifecyclesTable } from '../schema/lifecycles-table.js';
import type { TableNames } from '../schema/table-names.js';

interface LifecycleRow {
  subscription_uid: string;
  account_key: string;
  product_uid: string;
  offer_uid: string;
  currency: string;
  monthly_value: string | number;
  trial_started_at: string | null;
  trial_started_provisional: boolean | null;
  first_paid_at: string | null;
  first_paid_provisional: boolean | null;
  ended_at: string | null;
  ended_provisional: boolean | null;
  end_cause: SubscriptionLifecycle['endCause'] | null;
}

const ISO = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column}`;

/**
 * Whether the incoming time of `name` wins over the held one, as core's mergeLifecycles decides:
 * an event's over a read's, then the earlier (row comparison: false sorts before true).
 */
const wins = (name: string, extra = '') =>
  `excluded.${name}_at IS NOT NULL AND (l.${name}_at IS NULL OR
    (excluded.${name}_provisional, excluded.${name}_at${extra ? `, excluded.${extra}` : ''}) <
    (l.${name}_provisional, l.${name}_at${extra ? `, l.${extra}` : ''}))`;

const take = (name: string, columns: readonly string[], extra = '') =>
  columns
    .map(
      (column) => `${column} = CASE WHEN ${wins(name, extra)} THEN excluded.${column} ELSE l.${column} END`,
    )
    .join(',\n      ');

/** The lifecycle SQL, built once per table names. */
export function lifecycleStatements(t: TableNames) {
  const table = lifecyclesTable(t);
  // One statement for a batch: each record inserted, or merged into the one held under its row
  // lock (ON CONFLICT DO UPDATE), so that instances merging the same subscription at once each
  // see the other's. The batch holds one record per subscription (merged in JavaScript first).
  const record = `INSERT INTO ${table} AS l (subscription_uid, account_key, product_uid, offer_uid, currency,
      monthly_value, trial_started_at, trial_started_provisional, first_paid_at, first_paid_provisional,
      ended_at, ended_provisional, end_cause)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[],
      $7::timestamptz[], $8::boolean[], $9::timestamptz[], $10::boolean[], $11::timestamptz[],
      $12::boolean[], $13::text[])
    ON CONFLICT (subscription_uid) DO UPDATE SET
      ${take('trial_started', ['trial_started_at', 'trial_started_provisional'])},
      ${take('first_paid', ['first_paid_at', 'first_paid_provisional'])},
      ${take('ended', ['ended_at', 'ended_provisional', 'end_cause'], 'end_cause COLLATE "C"')}`;
  const read = `SELECT subscription_uid, account_key, product_uid, offer_uid, currency, monthly_value,
      ${ISO('trial_started_at')}, trial_started_provisional, ${ISO('first_paid_at')}, first_paid_provisional,
      ${ISO('ended_at')}, ended_provisional, end_cause
    FROM ${table} WHERE begun_at < $1::timestamptz`;
  return { record, read };
}

/** One record per subscription, merged as core merges them: one INSERT cannot update a row twice. */
function mergedBySubscription(lifecycles: readonly SubscriptionLifecycle[]): SubscriptionLifecycle[] {
  const merged = new Map<string, SubscriptionLifecycle>();
  for (const one of lifecycles) {
    const held = merged.get(one.subscriptionUid);
    merged.set(one.subscriptionUid, held === undefined ? one : mergeLifecycles(held, one));
  }
  return [...merged.values()];
}

/** The parameters of the record statement: one array per column. */
export function lifecycleArrays(lifecycles: readonly SubscriptionLifecycle[]): unknown[] {
  const merged = mergedBySubscription(lifecycles);
  const at = (time: LifecycleTime | undefined) => time?.at ?? null;
  const provisional = (time: LifecycleTime | undefined) => (time === undefined ? null : time.provisional);
  return [
    merged.map((one) => one.subscriptionUid),
    merged.map((one) => one.accountKey),
    merged.map((one) => one.productUid),
    merged.map((one) => one.offerUid),
    merged.map((one) => one.currency),
    merged.map((one) => one.monthlyValue),
    merged.map((one) => at(one.trialStartedAt)),
    merged.map((one) => provisional(one.trialStartedAt)),
    merged.map((one) => at(one.firstPaidAt)),
    merged.map((one) => provisional(one.firstPaidAt)),
    merged.map((one) => at(one.endedAt)),
    merged.map((one) => provisional(one.endedAt)),
    merged.map((one) => one.endCause ?? null),
  ];
}

/** Merges a batch in the transaction or on the executor given (applyOnce's, or the store's own). */
export async function recordLifecyclesOn(
  queryable: SqlQueryable,
  statement: string,
  lifecycles: readonly SubscriptionLifecycle[],
): Promise<void> {
  if (lifecycles.length === 0) return;
  await queryable.query(statement, lifecycleArrays(lifecycles));
}

function timeOf(
  at: string | null,
  provisional: boolean | null,
): { [K in 'at' | 'provisional']: LifecycleTime[K] } | undefined {
  return at === null ? undefined : { at, provisional: provisional === true };
}

function lifecycleOf(row: LifecycleRow): SubscriptionLifecycle {
  const trialStartedAt = timeOf(row.trial_started_at, row.trial_started_provisional);
  const firstPaidAt = timeOf(row.first_paid_at, row.first_paid_provisional);
  const endedAt = timeOf(row.ended_at, row.ended_provisional);
  return {
    subscriptionUid: row.subscription_uid,
    accountKey: row.account_key,
    productUid: row.product_uid,
    offerUid: row.offer_uid,
    currency: row.currency,
    monthlyValue: Number(row.monthly_value),
    ...(trialStartedAt ? { trialStartedAt } : {}),
    ...(firstPaidAt ? { firstPaidAt } : {}),
    ...(endedAt ? { endedAt } : {}),
    ...(row.end_cause ? { endCause: row.end_cause } : {}),
  };
}

/** core's LifecycleStore on the table of migration 15. */
export function lifecycleMethods(
  executor: SqlExecutor,
  { record, read }: ReturnType<typeof lifecycleStatements>,
): LifecycleStore {
  return {
    recordLifecycles: (lifecycles) => recordLifecyclesOn(executor, record, lifecycles),
    async readLifecycles({ begunBefore }) {
      const { rows } = await executor.query<LifecycleRow>(read, [begunBefore]);
      return rows.map(lifecycleOf);
    },
  };
}
