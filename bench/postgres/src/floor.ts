import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { BenchEvent } from './events.js';

/**
 * The floor: what a hand-written receiver does for one event on the same tables, with no dcbkit
 * code around it: one `pg` transaction running the same statements as dcbkit (claim the event,
 * read the entitlement and its version, write it, mark the event completed), with the record
 * built by hand. One transaction, so one commit where dcbkit makes three (claim, entitlement,
 * completion): what the whole kit costs against the least a correct receiver must do.
 */
export function floorReceiver(pool: pg.Pool, schema: string) {
  const entitlements = `"${schema}"."dcbkit_entitlements"`;
  const events = `"${schema}"."dcbkit_events"`;
  const claim = `INSERT INTO ${events} (key_hash, event_key, state, lease_until)
    VALUES (decode($1, 'hex'), $2, 'in_progress', now() + interval '60 seconds')
    ON CONFLICT (key_hash) DO NOTHING RETURNING 1`;
  const read = `SELECT data, version::text AS version FROM ${entitlements} WHERE account_key = $1 AND product_uid = $2`;
  const insert = `INSERT INTO ${entitlements} (account_key, product_uid, subscription_uid, payment_uids, data)
    VALUES ($1, $2, $3, $4::text[], $5::text::jsonb) ON CONFLICT (account_key, product_uid) DO NOTHING RETURNING 1`;
  const update = `UPDATE ${entitlements} SET subscription_uid = $3, payment_uids = $4::text[], data = $5::text::jsonb,
    version = version + 1, updated_at = now() WHERE account_key = $1 AND product_uid = $2 AND version = $6::bigint RETURNING 1`;
  const complete = `INSERT INTO ${events} (key_hash, event_key, state, lease_until, completed_at)
    VALUES (decode($1, 'hex'), $2, 'completed', NULL, now())
    ON CONFLICT (key_hash) DO UPDATE SET state = 'completed', lease_until = NULL, completed_at = now()`;

  return async function receive(event: BenchEvent): Promise<void> {
    const hash = createHash('sha256').update(event.key).digest('hex');
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const claimed = await client.query(claim, [hash, event.key]);
      if (claimed.rows.length === 1) {
        const { rows } = await client.query<{ data: Record<string, string[]>; version: string }>(read, [
          event.accountKey,
          event.productUid,
        ]);
        const current = rows[0];
        const units = [...(current?.data.unitOrderIds ?? []), event.orderId].sort();
        const payments = [...(current?.data.paymentUids ?? []), event.paymentUid].sort();
        const data = {
          ...current?.data,
          accountKey: event.accountKey,
          productUid: event.productUid,
          unitOrderIds: units,
          paymentUids: payments,
        };
        const params = [event.accountKey, event.productUid, null, payments, JSON.stringify(data)];
        const written = current
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
