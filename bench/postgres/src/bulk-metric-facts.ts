/**
 * A year of the business view's facts for many subscribers, written in bulk SQL straight into the
 * store's own tables (`<prefix>metric_keys` and `<prefix>metric_days`, migration 8 and 13): the
 * same rows `recordMetrics` would leave, in a few statements instead of hours of calls, so that
 * what is timed afterwards is the store's real `readMetricDays` over real tables.
 *
 * Each subscriber `n` has one plan (`n % 4`) and up to ten facts, dropped past the year's end:
 * - a monthly plan: a paid start, eight renewals a month apart, then its ending;
 * - a plan with a 7-day trial: the trial, its conversion, seven renewals, its ending;
 * - a weekly plan: a paid start, eight weekly renewals, its ending;
 * - a pass: five units sold a month apart, each spent the next day.
 * An ending is, by `n % 3`, a cancellation (one live subscriber less), a failed renewal (grace with
 * access) or a charge recovered in grace. Starts spread over the first 90 days.
 */
import type pg from 'pg';

export const YEAR_START = '2030-01-01';

/** The bench's offers, by plan number: the kit's offers must name the same uids. */
export const PLANS = [
  { offerUid: 'off_monthly', productUid: 'prod_premium', amount: 4500 },
  { offerUid: 'off_trial', productUid: 'prod_premium', amount: 4500 },
  { offerUid: 'off_weekly', productUid: 'prod_premium', amount: 1200 },
  { offerUid: 'off_pass', productUid: 'prod_pass', amount: 1000 },
] as const;

const FACTS_PER_SUBSCRIBER = 10;

/** The facts of subscribers 0 to $1 - 1 as rows (n, i, offer, product, kind, day, amount, live). */
function factsSql(): string {
  const offers = `ARRAY[${PLANS.map((plan) => `'${plan.offerUid}'`).join(', ')}]`;
  const products = `ARRAY[${PLANS.map((plan) => `'${plan.productUid}'`).join(', ')}]`;
  const prices = `ARRAY[${PLANS.map((plan) => plan.amount).join(', ')}]::bigint[]`;
  return `
    WITH plan AS (
      SELECT n, i, n % 4 AS plan, n % 90 AS start
      FROM generate_series(0, $1::int - 1) AS n, generate_series(0, ${FACTS_PER_SUBSCRIBER - 1}) AS i
    ), fact AS (
      SELECT n, i, plan,
        CASE
          WHEN plan = 3 THEN CASE WHEN i % 2 = 0 THEN 'unit_sold' ELSE 'unit_spent' END
          WHEN i = 0 THEN CASE WHEN plan = 1 THEN 'trial_started' ELSE 'new_subscription' END
          WHEN i = 1 AND plan = 1 THEN 'trial_converted'
          WHEN i < 9 THEN 'renewal_collected'
          WHEN n % 3 = 0 THEN 'churn_canceled'
          WHEN n % 3 = 1 THEN 'renewal_failed'
          ELSE 'grace_recovered'
        END AS kind,
        start + CASE plan
          WHEN 0 THEN i * 30
          WHEN 1 THEN CASE WHEN i = 0 THEN 0 ELSE 7 + (i - 1) * 30 END
          WHEN 2 THEN i * 7
          ELSE (i / 2) * 30 + i % 2
        END AS day
      FROM plan
    )
    SELECT n, i, (${offers})[plan + 1] AS offer_uid, (${products})[plan + 1] AS product_uid, kind,
      date '${YEAR_START}' + day AS day,
      CASE WHEN kind IN ('trial_started', 'unit_spent', 'churn_canceled', 'renewal_failed') THEN 0
        ELSE (${prices})[plan + 1] END AS amount,
      CASE kind WHEN 'new_subscription' THEN 1 WHEN 'trial_started' THEN 1 WHEN 'churn_canceled' THEN -1 ELSE 0 END AS live
    FROM fact WHERE day < 365`;
}

/**
 * The active subscribers the facts leave at the year's end: every subscription plan's subscriber
 * (plans 0 to 2) but the cancelled ones (`n % 3 === 0`), all of whose endings fall in the year. The
 * bench checks the kit's last bucket against it, so a read of empty or wrong tables cannot pass.
 */
export function plantedActiveAtYearEnd(subscribers: number): number {
  let active = 0;
  for (let n = 0; n < subscribers; n++) if (n % 4 < 3 && n % 3 !== 0) active++;
  return active;
}

/**
 * Writes the facts of `subscribers` subscribers: every fact's key (settled facts: the key alone,
 * as `recordMetrics` keeps them) and the daily totals per offer and kind. Returns the facts written.
 */
export async function fillMetricFacts(
  pool: pg.Pool,
  tables: { metricKeys: string; metricDays: string },
  subscribers: number,
): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Bench data, rebuilt on every run: no need to wait for each commit to reach the disk.
    await client.query('SET LOCAL synchronous_commit = off');
    const keys = await client.query(
      `INSERT INTO ${tables.metricKeys} (key) SELECT 'bench:' || n || ':' || i FROM (${factsSql()}) AS f`,
      [subscribers],
    );
    await client.query(
      `INSERT INTO ${tables.metricDays} (day, offer_uid, product_uid, kind, currency, count, amount, live)
       SELECT day, offer_uid, product_uid, kind, 'TND', count(*), sum(amount), sum(live)
       FROM (${factsSql()}) AS f GROUP BY day, offer_uid, product_uid, kind`,
      [subscribers],
    );
    await client.query('COMMIT');
    await client.query(`ANALYZE ${tables.metricKeys}, ${tables.metricDays}`);
    return keys.rowCount ?? 0;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
