import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { BenchEvent } from './events.js';

/**
 * The floor: what a hand-written receiver does for one event on the same tables, with no dcbkit
 * code around it: one `pg` transaction running the same statements as dcbkit (claim the event,
 * read the entitlement, its version and whether its payment and unit are known, write it with its
 * new payment and unit rows, mark the event completed), with the record built by hand. One
 * transaction, so one commit where dcbkit makes three (claim, entitlement, completion): what the
 * whole kit costs against the least a correct receiver must do.
 */
export function floorReceiver(pool: pg.Pool, schema: string) {
  const entitlements = `"${schema}"."dcbkit_entitlements"`;
  const payments = `"${schema}"."dcbkit_entitlement_payments"`;
  const units = `"${schema}"."dcbkit_entitlement_units"`;
  const events = `"${schema}"."dcbkit_events"`;
  const key = 'account_key = $1 AND product_uid = $2';
  const claim = `INSERT INTO ${events} (key_hash, event_key, state, lease_until)
    VALUES (decode($1, 'hex'), $2, 'in_progress', now() + interval '60 seconds')
    ON CONFLICT (key_hash) DO NOTHING RETURNING 1`;
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
  const complete = `INSERT INTO ${events} (key_hash, event_key, state, lease_until, completed_at)
    VALUES (decode($1, 'hex'), $2, 'completed', NULL, now())
    ON CONFLICT (key_hash) DO UPDATE SET state = 'completed', lease_until = NULL, completed_at = now()`;

  return async function receive(event: BenchEvent): Promise<void> {
    const hash = createHash('sha256').update(event.key).digest('hex');
    // A unit per credits purchase, as dcbkit counts one per CONSUMABLE order.
    const unitOrderId = event.productUid === 'prod_credits' ? event.orderId : null;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const claimed = await client.query(claim, [hash, event.key]);
      if (claimed.rows.length === 1) {
        const { rows } = await client.query<{
          data: Record<string, unknown> | null;
          version: string | null;
          payment_known: boolean;
          unit_known: boolean;
        }>(read, [event.accountKey, event.productUid, event.paymentUid, unitOrderId]);
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
          ? await client.query(update, [...params, current.version])
          : await client.query(insert, params);
        if (written.rows.length !== 1)
          throw new Error('floor: concurrent write (events of one entitlement overlapped)');
        await client.query(complete, [hash, event.key]);
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
