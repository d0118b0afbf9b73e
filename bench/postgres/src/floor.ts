import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { BenchEvent } from './events.js';

/**
 * The floor: what a hand-written receiver does for one event on the same tables, with no dcbkit
 * code around it: one `pg` transaction running the statements dcbkit's one-transaction path runs
 * (claim the event as completed; read the entitlement, its version and whether its payment and
 * unit are known; write it with its new payment and unit rows; count its business fact; for a
 * subscription, read its phone line's entitlements; then the event's target, its history entry and
 * its pending payment's end in one statement), with the record built by hand: what the whole kit
 * costs against the least a correct receiver doing the same work must do.
 */
export function floorReceiver(pool: pg.Pool, schema: string) {
  const entitlements = `"${schema}"."dcbkit_entitlements"`;
  const payments = `"${schema}"."dcbkit_entitlement_payments"`;
  const units = `"${schema}"."dcbkit_entitlement_units"`;
  const events = `"${schema}"."dcbkit_events"`;
  const history = `"${schema}"."dcbkit_history"`;
  const pending = `"${schema}"."dcbkit_pending_payments"`;
  const metricKeys = `"${schema}"."dcbkit_metric_keys"`;
  const metricDays = `"${schema}"."dcbkit_metric_days"`;
  const key = 'account_key = $1 AND product_uid = $2';
  // The claim as dcbkit's: the transaction's timeouts, the key inserted as completed, and a copy's
  // history entry written by the same statement when the key was there before.
  const claim = `WITH settings AS (
      SELECT set_config('lock_timeout', '9000', true), set_config('statement_timeout', '9000', true)
    ), claim AS (
      INSERT INTO ${events} (key_hash, event_key, state, lease_until, completed_at)
      SELECT decode($1, 'hex'), $2, 'completed', NULL, now() FROM settings
      ON CONFLICT (key_hash) DO NOTHING RETURNING 1
    ), seen AS (
      SELECT state, account_key, product_uid FROM ${events} WHERE key_hash = decode($1, 'hex')
    ), copy AS (
      INSERT INTO ${history} (recorded_at, account_key, product_uid, source, decision, event_key, status_before, status_after)
      SELECT now(), s.account_key, s.product_uid, 'webhook', 'duplicate', $2, e.data->>'status', e.data->>'status'
      FROM seen s LEFT JOIN ${entitlements} e ON e.account_key = s.account_key AND e.product_uid = s.product_uid
      WHERE s.state = 'completed' AND s.account_key IS NOT NULL
    )
    SELECT 1 AS claimed FROM claim`;
  const read = `SELECT e.data, e.version::text AS version,
      EXISTS (SELECT 1 FROM ${payments} WHERE payment_uid = $3) AS payment_known,
      EXISTS (SELECT 1 FROM ${units} WHERE ${key} AND order_id = $4) AS unit_known
    FROM (VALUES (1)) AS one (x) LEFT JOIN ${entitlements} e ON e.account_key = $1 AND e.product_uid = $2`;
  // The record and its new payment and unit rows in one statement, as dcbkit writes them.
  const withFacts = (write: string) => `WITH written AS (${write} RETURNING 1),
    payment AS (INSERT INTO ${payments} (payment_uid, account_key, product_uid)
      SELECT $4::text, $1::text, $2::text WHERE $4::text IS NOT NULL AND EXISTS (SELECT 1 FROM written)
      ON CONFLICT (payment_uid) DO NOTHING),
    unit AS (INSERT INTO ${units} (account_key, product_uid, order_id)
      SELECT $1::text, $2::text, $5::text WHERE $5::text IS NOT NULL AND EXISTS (SELECT 1 FROM written)
      ON CONFLICT DO NOTHING)
    SELECT 1 FROM written`;
  const insert =
    withFacts(`INSERT INTO ${entitlements} (account_key, product_uid, data) VALUES ($1, $2, $3::text::jsonb)
    ON CONFLICT (account_key, product_uid) DO NOTHING`);
  const update =
    withFacts(`UPDATE ${entitlements} SET data = $3::text::jsonb, version = version + 1, updated_at = now()
    WHERE ${key} AND version = $6::bigint`);
  // The fact counted once by its key, added to its day's total.
  const fact = `WITH input AS (
      SELECT * FROM unnest(ARRAY[$1::text], ARRAY[$2::date], ARRAY[$3::text], ARRAY[$4::text], ARRAY[$5::text],
        ARRAY[$6::bigint], ARRAY[$7::bigint]) AS e(key, day, offer_uid, product_uid, kind, amount, live)
    ), fresh AS (INSERT INTO ${metricKeys} (key) SELECT key FROM input ON CONFLICT (key) DO NOTHING RETURNING key)
    INSERT INTO ${metricDays} AS d (day, offer_uid, product_uid, kind, currency, count, amount, live)
    SELECT day, offer_uid, product_uid, kind, 'TND', 1, amount, live FROM input JOIN fresh USING (key)
    ON CONFLICT (day, offer_uid, product_uid, kind, currency) DO UPDATE SET
      count = d.count + excluded.count, amount = d.amount + excluded.amount, live = d.live + excluded.live`;
  const line = `SELECT data FROM ${entitlements} WHERE data->>'subscriberUid' = $1
    ORDER BY account_key COLLATE "C", product_uid COLLATE "C"`;
  const last = `WITH target AS (UPDATE ${events} SET account_key = $3, product_uid = $4 WHERE key_hash = decode($1, 'hex')),
    entry AS (INSERT INTO ${history} (recorded_at, account_key, product_uid, source, decision, event_name,
      event_key, occurred_at, payment_uid, status_after)
      VALUES (now(), $3, $4, 'webhook', 'applied', 'payment.succeeded', $2, $5, $6, 'ACTIVE'))
    UPDATE ${pending} SET ended_status = 'SUCCEEDED', ended_at = now() WHERE payment_uid = $6`;

  // Each statement prepared once per connection, by name, as dcbkit's executor does: a hand-written
  // receiver that re-parsed its statements on every call would flatter dcbkit.
  const names = new Map<string, string>();
  const prepared = (text: string, values: unknown[]) => {
    let name = names.get(text);
    if (name === undefined) {
      name = `floor_${names.size}`;
      names.set(text, name);
    }
    return { name, text, values };
  };

  return async function receive(event: BenchEvent): Promise<void> {
    const hash = createHash('sha256').update(event.key).digest('hex');
    // A unit per credits purchase, as dcbkit counts one per CONSUMABLE order.
    const unitOrderId = event.productUid === 'prod_credits' ? event.orderId : null;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const claimed = await client.query(prepared(claim, [hash, event.key]));
      if (claimed.rows.length === 1) {
        const { rows } = await client.query<{
          data: Record<string, unknown> | null;
          version: string | null;
          payment_known: boolean;
          unit_known: boolean;
        }>(prepared(read, [event.accountKey, event.productUid, event.paymentUid, unitOrderId]));
        const current = rows[0];
        const newUnit = unitOrderId !== null && current?.unit_known !== true;
        const unitsBought = Number(current?.data?.unitsBought ?? 0) + (newUnit ? 1 : 0);
        const data = {
          ...current?.data,
          accountKey: event.accountKey,
          productUid: event.productUid,
          unitsBought,
          unitsUsed: Number(current?.data?.unitsUsed ?? 0),
        };
        const params = [
          event.accountKey,
          event.productUid,
          JSON.stringify(data),
          current?.payment_known === true ? null : event.paymentUid,
          newUnit ? unitOrderId : null,
        ];
        const written = current?.data
          ? await client.query(prepared(update, [...params, current.version]))
          : await client.query(prepared(insert, params));
        if (written.rows.length !== 1)
          throw new Error('floor: concurrent write (events of one entitlement overlapped)');
        const subscription = unitOrderId === null;
        await client.query(
          prepared(fact, [
            `purchase:${event.paymentUid}`,
            event.occurredAt.slice(0, 10),
            subscription ? 'off_premium_monthly' : 'off_credits_10',
            event.productUid,
            subscription ? 'new_subscription' : 'unit_sold',
            subscription ? 4500 : 2000,
            subscription ? 1 : 0,
          ]),
        );
        if (subscription) await client.query(prepared(line, [event.subscriberUid]));
        await client.query(
          prepared(last, [
            hash,
            event.key,
            event.accountKey,
            event.productUid,
            event.occurredAt,
            event.paymentUid,
          ]),
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
}
