import {
  type LifecycleStore,
  type LifecycleTime,
  mergeLifecycles,
  type RevenueMoveDay,
  type SubscriptionLifecycle,
  type TrialOutcomeDay,
} from '@dcbkit/core/store';
import type { SqlExecutor, SqlQueryable } from '../executor/sql-executor.js';
import { lifecyclesTable } from '../schema/lifecycles-table.js';
import type { TableNames } from '../schema/table-names.js';
import { numbered } from './sql-params.js';

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

/** A stored day or month (migration 15's generated columns) as core's `YYYY-MM-DD`. */
const text = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;

/**
 * After the records (recordSql), in a statement whose snapshot is taken after their locks, so
 * that it sees every committed record of these subscribers: what their rows make of each other,
 * as core's subscribersOf (paid ones in order of their first charge, then of uid in code-unit
 * order; a returning subscriber's when an earlier one had ended by its first charge; GREATEST
 * ignores a null, hence the CASE). No WITH of its own: applyOnce sends it as a part of the event's
 * last statement. `$` holds the placeholders of subscriberArrays' accounts and products.
 */
export function deriveSubscribersSql(t: TableNames, $: readonly string[]): string {
  const table = lifecyclesTable(t);
  const [accounts, products] = $;
  return `UPDATE ${table} AS l SET cohort_month = d.cohort_month, cohort_offer_uid = d.cohort_offer_uid,
      subscriber_first = d.subscriber_first, reactivation = d.reactivation
    FROM (SELECT subscription_uid,
        date_trunc('month', first_value(first_paid_at) OVER w AT TIME ZONE 'UTC')::date AS cohort_month,
        first_value(offer_uid) OVER w AS cohort_offer_uid,
        row_number() OVER w = 1 AS subscriber_first,
        COALESCE(min(CASE WHEN ended_at IS NOT NULL THEN GREATEST(ended_at, first_paid_at) END)
          OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) <= first_paid_at, false) AS reactivation
      FROM ${table}
      WHERE first_paid_at IS NOT NULL
        AND (account_key, product_uid) IN (SELECT * FROM unnest(${accounts}::text[], ${products}::text[]))
      WINDOW w AS (PARTITION BY account_key, product_uid ORDER BY first_paid_at, subscription_uid COLLATE "C")) AS d
    WHERE l.subscription_uid = d.subscription_uid AND (l.cohort_month IS DISTINCT FROM d.cohort_month
      OR l.cohort_offer_uid IS DISTINCT FROM d.cohort_offer_uid OR l.subscriber_first <> d.subscriber_first
      OR l.reactivation <> d.reactivation)`;
}

/** The lifecycle SQL, built once per table names. */
export function lifecycleStatements(t: TableNames) {
  const table = lifecyclesTable(t);
  // A subscriber's lock (their account and product) in the tables' own namespace, so that two
  // dcbkit schemas in one database never share one.
  const subscriberLock = `hashtextextended('${table.replaceAll("'", "''")}:' || account_key || E'\\n' || product_uid, 0)`;
  // One statement for a batch (one record per subscription, merged in JavaScript first): the
  // subscribers' locks, in order (two writers never wait on each other in a cycle), then each record inserted or
  // merged into the one held under its row lock (ON CONFLICT DO UPDATE), so that instances merging
  // the same subscription at once each see the other's. The locks are held to the commit.
  const record = `WITH input AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[],
        $7::timestamptz[], $8::boolean[], $9::timestamptz[], $10::boolean[], $11::timestamptz[],
        $12::boolean[], $13::text[]) AS i (subscription_uid, account_key, product_uid, offer_uid, currency,
        monthly_value, trial_started_at, trial_started_provisional, first_paid_at, first_paid_provisional,
        ended_at, ended_provisional, end_cause)
    ), locks AS (
      SELECT count(pg_advisory_xact_lock(k)) AS held
      FROM (SELECT DISTINCT ${subscriberLock} AS k FROM input ORDER BY k) AS subscribers
    )
    INSERT INTO ${table} AS l (subscription_uid, account_key, product_uid, offer_uid, currency,
      monthly_value, trial_started_at, trial_started_provisional, first_paid_at, first_paid_provisional,
      ended_at, ended_provisional, end_cause)
    SELECT input.* FROM input, locks
    ON CONFLICT (subscription_uid) DO UPDATE SET
      ${take('trial_started', ['trial_started_at', 'trial_started_provisional'])},
      ${take('first_paid', ['first_paid_at', 'first_paid_provisional'])},
      ${take('ended', ['ended_at', 'ended_provisional', 'end_cause'], 'end_cause COLLATE "C"')}`;
  const derive = deriveSubscribersSql(t, numbered(2));
  // Each read groups by the stored days and months, then formats the few groups.
  // core's cohortCountsOf: $1, $2 the first days of the cohorts' months.
  const cohorts = `SELECT ${text('cohort_month')} AS cohort_month, cohort_offer_uid, product_uid,
      ${text('paid_month')} AS paid_month, ${text('end_month')} AS end_month, subscriptions, firsts
    FROM (SELECT cohort_month, cohort_offer_uid, product_uid, paid_month, end_month,
        count(*) AS subscriptions, count(*) FILTER (WHERE subscriber_first) AS firsts
      FROM ${table} WHERE cohort_month >= $1::date AND cohort_month < $2::date
      GROUP BY 1, 2, 3, 4, 5) AS g`;
  // core's revenueMovesOf: $1, $2 the days.
  const moves = `SELECT ${text('day')} AS day, offer_uid, product_uid, currency, kind, subscriptions, monthly_value
    FROM (SELECT paid_day AS day, offer_uid, product_uid, currency,
        CASE WHEN reactivation THEN 'reactivated' ELSE 'new' END AS kind, count(*) AS subscriptions,
        sum(monthly_value) AS monthly_value
      FROM ${table} WHERE paid_day >= $1::date AND paid_day < $2::date
      GROUP BY 1, 2, 3, 4, 5
      UNION ALL
      SELECT end_day, offer_uid, product_uid, currency, 'churned', count(*), sum(monthly_value)
      FROM ${table} WHERE end_day >= $1::date AND end_day < $2::date
      GROUP BY 1, 2, 3, 4) AS g`;
  const liveBefore = `SELECT offer_uid, product_uid, currency, sum(monthly_value) AS monthly_value
    FROM ${table} WHERE paid_day < $1::date AND (end_day IS NULL OR end_day >= $1::date)
    GROUP BY 1, 2, 3`;
  // core's trialOutcomesOf (trialOutcomeOf's rule): $1, $2 the days.
  const trials = `SELECT ${text('day')} AS day, offer_uid, product_uid, outcome, trials
    FROM (SELECT trial_day AS day, offer_uid, product_uid,
        CASE WHEN first_paid_at IS NOT NULL THEN 'converted' WHEN ended_at IS NULL THEN 'inTrial'
          WHEN end_cause = 'suspended' THEN 'failedToPay' ELSE 'canceled' END AS outcome,
        count(*) AS trials
      FROM ${table} WHERE trial_day >= $1::date AND trial_day < $2::date
      GROUP BY 1, 2, 3, 4) AS g`;
  return { record, derive, cohorts, moves, liveBefore, trials };
}

export type LifecycleStatements = ReturnType<typeof lifecycleStatements>;

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

/**
 * Merges a batch in a transaction of its own: the records under their subscribers' locks, then
 * what each subscriber's rows make of each other. (applyOnce sends the first in the event's
 * transaction, and the second as a part of its last statement.)
 */
export async function recordLifecyclesOn(
  tx: SqlQueryable,
  sql: LifecycleStatements,
  lifecycles: readonly SubscriptionLifecycle[],
): Promise<void> {
  if (lifecycles.length === 0) return;
  await tx.query(sql.record, lifecycleArrays(lifecycles));
  await tx.query(sql.derive, subscriberArrays(lifecycles));
}

/** The derive statement's parameters: the records' subscribers (accounts, products). */
export function subscriberArrays(lifecycles: readonly SubscriptionLifecycle[]): unknown[] {
  return [lifecycles.map((one) => one.accountKey), lifecycles.map((one) => one.productUid)];
}

interface CohortRow {
  cohort_month: string;
  cohort_offer_uid: string;
  product_uid: string;
  paid_month: string;
  end_month: string | null;
  subscriptions: string | number;
  firsts: string | number;
}

interface MoveRow {
  day: string;
  offer_uid: string;
  product_uid: string;
  currency: string;
  kind: RevenueMoveDay['kind'];
  subscriptions: string | number;
  monthly_value: string | number;
}

interface TrialRow {
  day: string;
  offer_uid: string;
  product_uid: string;
  outcome: TrialOutcomeDay['outcome'];
  trials: string | number;
}

/** core's LifecycleStore on the table of migration 15: each read one GROUP BY over an index. */
export function lifecycleMethods(executor: SqlExecutor, sql: LifecycleStatements): LifecycleStore {
  return {
    recordLifecycles: (lifecycles) =>
      lifecycles.length === 0
        ? Promise.resolve()
        : executor.transaction((tx) => recordLifecyclesOn(tx, sql, lifecycles)),
    async readCohortCounts({ from, to }) {
      const { rows } = await executor.query<CohortRow>(sql.cohorts, [from, to]);
      return rows.map((row) => ({
        cohortMonth: row.cohort_month,
        offerUid: row.cohort_offer_uid,
        productUid: row.product_uid,
        paidMonth: row.paid_month,
        endMonth: row.end_month,
        subscriptions: Number(row.subscriptions),
        firsts: Number(row.firsts),
      }));
    },
    async readRevenueMoves({ from, to }) {
      const [days, before] = await Promise.all([
        executor.query<MoveRow>(sql.moves, [from, to]),
        executor.query<Omit<MoveRow, 'day' | 'kind' | 'subscriptions'>>(sql.liveBefore, [from]),
      ]);
      return {
        days: days.rows.map((row) => ({
          day: row.day,
          offerUid: row.offer_uid,
          productUid: row.product_uid,
          currency: row.currency,
          kind: row.kind,
          subscriptions: Number(row.subscriptions),
          monthlyValue: Number(row.monthly_value),
        })),
        liveBefore: before.rows.map((row) => ({
          offerUid: row.offer_uid,
          productUid: row.product_uid,
          currency: row.currency,
          monthlyValue: Number(row.monthly_value),
        })),
      };
    },
    async readTrialOutcomes({ from, to }) {
      const { rows } = await executor.query<TrialRow>(sql.trials, [from, to]);
      return rows.map((row) => ({
        day: row.day,
        offerUid: row.offer_uid,
        productUid: row.product_uid,
        outcome: row.outcome,
        trials: Number(row.trials),
      }));
    },
  };
}
