import { type MetricDay, type MetricEntry, type MetricsStore, utcDayOf } from '@dcbkit/core/store';
import type { SqlExecutor } from '../executor/sql-executor.js';
import type { TableNames } from '../schema/table-names.js';
import { numbered } from './sql-params.js';

interface DayRow {
  day: string;
  offer_uid: string;
  product_uid: string;
  kind: MetricDay['kind'];
  currency: string;
  detail: string;
  count: string | number;
  amount: string | number;
  live: string | number;
}

/**
 * The CTEs that record facts: the keys not yet known are inserted (a provisional fact's with its
 * day and totals, so that it can be moved), and only the facts whose key went in are added to their
 * day's totals; a provisional key met again by a fact that is not provisional is settled, its
 * totals moved to that fact's day. `fresh` holds the keys that were new. Top-level CTEs, so that the one-transaction path can send them as part of its last
 * statement (PostgreSQL takes data-modifying CTEs only at the top level). A key settled by another
 * instance at the same moment is skipped here: the UPDATE re-checks `day IS NOT NULL` once it has
 * the row's lock. `$` holds the placeholders of factArrays' eleven arrays, in order.
 */
export function recordFactsCtes(t: TableNames, $: readonly string[]): string {
  const [key, day, offer, product, kind, currency, count, amount, live, provisional, detail] = $;
  return `input AS (
      SELECT * FROM unnest(${key}::text[], ${day}::date[], ${offer}::text[], ${product}::text[], ${kind}::text[],
        ${currency}::text[], ${count}::bigint[], ${amount}::bigint[], ${live}::bigint[], ${provisional}::boolean[],
        ${detail}::text[]) WITH ORDINALITY
        AS e(key, day, offer_uid, product_uid, kind, currency, count, amount, live, provisional, detail, n)
    ), fresh AS (
      INSERT INTO ${t.metricKeys} (key, day, offer_uid, product_uid, kind, currency, count, amount, live, detail)
      SELECT DISTINCT ON (key) key, CASE WHEN provisional THEN day END, CASE WHEN provisional THEN offer_uid END,
        CASE WHEN provisional THEN product_uid END, CASE WHEN provisional THEN kind END,
        CASE WHEN provisional THEN currency END, CASE WHEN provisional THEN count END,
        CASE WHEN provisional THEN amount END, CASE WHEN provisional THEN live END,
        CASE WHEN provisional THEN detail END
      FROM input ORDER BY key, n
      ON CONFLICT (key) DO NOTHING RETURNING key
    ), first_seen AS (
      SELECT DISTINCT ON (key) input.* FROM input JOIN fresh USING (key) ORDER BY key, n
    ), settling AS (
      SELECT DISTINCT ON (key) key, day AS settled_day FROM input WHERE NOT provisional ORDER BY key, n
    ), settled AS (
      UPDATE ${t.metricKeys} AS k SET day = NULL, offer_uid = NULL, product_uid = NULL, kind = NULL,
        currency = NULL, count = NULL, amount = NULL, live = NULL, detail = NULL
      FROM (SELECT p.*, s.settled_day FROM ${t.metricKeys} p JOIN settling s USING (key) WHERE p.day IS NOT NULL) AS was
      WHERE k.key = was.key AND k.day IS NOT NULL
      RETURNING was.day AS was_day, was.settled_day, was.offer_uid, was.product_uid, was.kind, was.currency,
        was.count, was.amount, was.live, coalesce(was.detail, '') AS detail
    ), changes AS (
      SELECT day, offer_uid, product_uid, kind, currency, detail, count, amount, live FROM first_seen
      UNION ALL SELECT settled_day, offer_uid, product_uid, kind, currency, detail, count, amount, live
        FROM settled WHERE settled_day <> was_day
      UNION ALL SELECT was_day, offer_uid, product_uid, kind, currency, detail, -count, -amount, -live
        FROM settled WHERE settled_day <> was_day
    ), totals AS (
      INSERT INTO ${t.metricDays} AS d (day, offer_uid, product_uid, kind, currency, detail, count, amount, live)
      SELECT day, offer_uid, product_uid, kind, currency, detail, sum(count), sum(amount), sum(live)
      FROM changes GROUP BY day, offer_uid, product_uid, kind, currency, detail
      ON CONFLICT (day, offer_uid, product_uid, kind, currency, detail) DO UPDATE SET
        count = d.count + excluded.count, amount = d.amount + excluded.amount, live = d.live + excluded.live
    )`;
}

/** How many arrays factArrays makes: one per column of a fact. */
const FACT_ARRAYS = 11;

/** The parameters of recordFactsCtes: one array per column. */
export function factArrays(entries: readonly MetricEntry[]): unknown[] {
  return [
    entries.map((entry) => entry.key),
    entries.map((entry) => utcDayOf(entry.occurredAt)),
    entries.map((entry) => entry.offerUid),
    entries.map((entry) => entry.productUid),
    entries.map((entry) => entry.kind),
    entries.map((entry) => entry.currency),
    entries.map((entry) => entry.count),
    entries.map((entry) => entry.amount),
    entries.map((entry) => entry.live),
    entries.map((entry) => entry.provisional === true),
    // '' for none: the totals' key column is not null (migration 14).
    entries.map((entry) => entry.detail ?? ''),
  ];
}

/** Of `entries`, those whose key was new (`fresh`): of a key given twice, the first, the one counted. */
export function countedOf(entries: readonly MetricEntry[], fresh: Iterable<string>): MetricEntry[] {
  const keys = new Set(fresh);
  return entries.filter((entry) => keys.delete(entry.key));
}

/** The business view's SQL, built once per table names (storeStatements). */
export function metricsStatements(t: TableNames) {
  const record = `WITH ${recordFactsCtes(t, numbered(FACT_ARRAYS))}
    SELECT key FROM fresh`;
  const days = `SELECT to_char(day, 'YYYY-MM-DD') AS day, offer_uid, product_uid, kind, currency, detail, count, amount, live
    FROM ${t.metricDays} WHERE day >= $1::date AND day < $2::date AND (count <> 0 OR amount <> 0 OR live <> 0)`;
  const liveBefore = `SELECT offer_uid, product_uid, sum(live) AS live
    FROM ${t.metricDays} WHERE day < $1::date GROUP BY offer_uid, product_uid`;
  return { record, days, liveBefore };
}

/**
 * The business view's daily totals (core's MetricsStore) in the two tables of migration 8 (a fact's detail apart since 14). A call
 * is one statement: the keys not yet known are inserted, and only the facts whose key went in are
 * added to their day's totals; a second instance inserting the same key waits on the first and
 * then finds it, so a fact counts once across instances.
 */
export function metricsMethods(
  executor: SqlExecutor,
  { record, days, liveBefore }: ReturnType<typeof metricsStatements>,
): MetricsStore {
  return {
    async recordMetrics(entries: readonly MetricEntry[]) {
      if (entries.length === 0) return [];
      const { rows } = await executor.query<{ key: string }>(record, factArrays(entries));
      return countedOf(
        entries,
        rows.map((row) => row.key),
      );
    },
    async readMetricDays({ from, to }) {
      const [found, before] = await Promise.all([
        executor.query<DayRow>(days, [from, to]),
        executor.query<{ offer_uid: string; product_uid: string; live: string | number }>(liveBefore, [from]),
      ]);
      return {
        days: found.rows.map((row) => ({
          day: row.day,
          offerUid: row.offer_uid,
          productUid: row.product_uid,
          kind: row.kind,
          currency: row.currency,
          ...(row.detail !== '' ? { detail: row.detail } : {}),
          count: Number(row.count),
          amount: Number(row.amount),
          live: Number(row.live),
        })),
        liveBefore: before.rows.map((row) => ({
          offerUid: row.offer_uid,
          productUid: row.product_uid,
          live: Number(row.live),
        })),
      };
    },
  };
}
