/**
 * A year of the checkout funnel's facts for many subscribers, written in bulk SQL straight into the
 * store's own tables (`<prefix>metric_keys` and `<prefix>metric_days`, with the detail of migration
 * 14), as `recordMetrics` would leave them: what is timed afterwards is the store's real
 * `readMetricDays` under `kit.checkoutFunnel`.
 *
 * Each subscriber `n` started one checkout on day `n % 365`, and it ended, by `n % 20`: refused
 * (RSK-101, the line opted out), failed (PAY-101, no balance), expired, or paid (every other).
 */
import type pg from 'pg';
import { PLANS, YEAR_START } from './bulk-metric-facts.js';

/** The facts of subscribers 0 to $1 - 1 as rows (key, offer, product, kind, detail, day). */
function checkoutFactsSql(): string {
  const offers = `ARRAY[${PLANS.map((plan) => `'${plan.offerUid}'`).join(', ')}]`;
  const products = `ARRAY[${PLANS.map((plan) => `'${plan.productUid}'`).join(', ')}]`;
  return `
    WITH checkout AS (
      SELECT n, n % 4 AS plan, date '${YEAR_START}' + (n % 365) AS day
      FROM generate_series(0, $1::int - 1) AS n
    ), fact AS (
      SELECT n, plan, day, 'checkout:' || n AS key, 'checkout_started' AS kind, '' AS detail FROM checkout
      UNION ALL
      SELECT n, plan, day, 'checkout_end:' || n,
        CASE n % 20 WHEN 0 THEN 'checkout_refused' WHEN 1 THEN 'checkout_failed'
          WHEN 2 THEN 'checkout_expired' ELSE 'checkout_succeeded' END,
        CASE n % 20 WHEN 0 THEN 'RSK-101' WHEN 1 THEN 'PAY-101' ELSE '' END
      FROM checkout
    )
    SELECT key, (${offers})[plan + 1] AS offer_uid, (${products})[plan + 1] AS product_uid, kind, detail, day
    FROM fact`;
}

/** Checkouts refused for an opted-out line, of `subscribers`' one each: the bench checks the kit's count against it. */
export function plantedRefusals(subscribers: number): number {
  return Math.ceil(subscribers / 20);
}

/** Writes the checkout facts of `subscribers` subscribers, keys and daily totals; returns the facts written. */
export async function fillCheckoutFacts(
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
      `INSERT INTO ${tables.metricKeys} (key) SELECT key FROM (${checkoutFactsSql()}) AS f`,
      [subscribers],
    );
    await client.query(
      `INSERT INTO ${tables.metricDays} (day, offer_uid, product_uid, kind, currency, detail, count, amount, live)
       SELECT day, offer_uid, product_uid, kind, 'TND', detail, count(*), 0, 0
       FROM (${checkoutFactsSql()}) AS f GROUP BY day, offer_uid, product_uid, kind, detail`,
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
