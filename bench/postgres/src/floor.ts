import { createHash, randomUUID } from 'node:crypto';
import type { FloorVerifier } from '@dcbkit-bench/shared';
import type pg from 'pg';
import type { BenchEvent } from './events.js';
import { floorStatements } from './floor-statements.js';

interface ReadRow {
  data: Record<string, unknown> | null;
  version: string | null;
  payment_ours: boolean | null;
  unit_known: boolean;
}

/**
 * The floor: what a hand-written receiver does for one event on the same tables, with no dcbkit
 * code around it: one `pg` transaction sending the statements dcbkit's one-transaction path sends
 * (floor-statements.ts), with the same parameters, computed by hand for this bench's two offers
 * (no signature check, no parsing, no rules engine: `checked` adds the first two). What the whole
 * kit costs against the least a receiver doing the same database work must do.
 */
export function floorReceiver(
  pool: pg.Pool,
  schema: string,
  checked?: { verify: FloorVerifier; nowSeconds: number },
  /**
   * On a pool in pg's pipeline mode: BEGIN goes out with the claim and COMMIT with the last
   * statement, unawaited, as dcbkit's executor batches them; the yardstick for what dcbkit's
   * own code costs once both sides save those round trips.
   */
  pipelined = false,
) {
  const sql = floorStatements(schema);
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
    // With `checked`: the signature checked and the body parsed first, as every correct receiver must.
    checked?.verify(event.rawBody, event.headers['service-signature'], checked.nowSeconds);
    const hash = createHash('sha256').update(event.key).digest('hex');
    const subscription = event.subscriptionUid !== undefined;
    // A unit per credits purchase, as dcbkit counts one per CONSUMABLE order.
    const unitOrderId = subscription ? null : event.orderId;
    const client = await pool.connect();
    try {
      const begun = client.query('BEGIN');
      if (!pipelined) await begun;
      const claimed = await client.query<{ claimed: boolean }>(
        prepared(sql.claim, [
          hash,
          event.key,
          '9000',
          randomUUID(),
          true,
          'payment.succeeded',
          event.occurredAt,
          event.paymentUid,
          event.subscriptionUid ?? null,
          subscription ? event.subscriberUid : null,
        ]),
      );
      if (pipelined) await begun;
      if (claimed.rows[0]?.claimed === true) {
        const { rows } = await client.query<ReadRow>(
          prepared(sql.read, [event.accountKey, event.productUid, event.paymentUid, unitOrderId]),
        );
        const current = rows[0];
        const newUnit = unitOrderId !== null && current?.unit_known !== true;
        const unitsBefore = Number(current?.data?.unitsBought ?? 0) - Number(current?.data?.unitsUsed ?? 0);
        const record = {
          accountKey: event.accountKey,
          productUid: event.productUid,
          offerUid: event.offerUid,
          type: subscription ? 'SUBSCRIPTION' : 'CONSUMABLE',
          status: 'ACTIVE',
          subscriptionUid: event.subscriptionUid ?? null,
          subscriberUid: event.subscriberUid,
          currentPeriodEnd: event.currentPeriodEnd ?? null,
          trialEndsAt: null,
          cancelAt: null,
          graceEndsAt: null,
          unitsBought: Number(current?.data?.unitsBought ?? 0) + (newUnit ? 1 : 0),
          unitsUsed: Number(current?.data?.unitsUsed ?? 0),
          unitAccessSeconds: null,
          unitAccessEndsAt: null,
          lastEventName: 'payment.succeeded',
          lastEventAt: event.occurredAt,
        };
        const params = [
          event.accountKey,
          event.productUid,
          event.subscriptionUid ?? null,
          JSON.stringify(record),
          subscription,
          event.currentPeriodEnd ?? null,
          event.occurredAt,
          current?.payment_ours === null || current === undefined ? event.paymentUid : null,
          newUnit ? unitOrderId : null,
        ];
        const written = current?.data
          ? await client.query(prepared(sql.update, [...params, current.version]))
          : await client.query(prepared(sql.insert, params));
        if (written.rows.length !== 1)
          throw new Error('floor: concurrent write (events of one entitlement overlapped)');
        if (subscription) await client.query(prepared(sql.line, [event.subscriberUid]));
        if (subscription) {
          await client.query(
            prepared(sql.lifecycle, [
              event.subscriptionUid,
              event.accountKey,
              event.productUid,
              event.offerUid,
              event.occurredAt,
            ]),
          );
        }
        const units = (n: number) => (subscription ? null : Math.max(0, n));
        const last = client.query(
          prepared(subscription ? sql.lastOfSubscription : sql.last, [
            hash,
            event.accountKey,
            event.productUid,
            new Date().toISOString(),
            event.accountKey,
            event.productUid,
            'webhook',
            'applied',
            'payment.succeeded',
            event.key,
            event.occurredAt,
            event.paymentUid,
            event.subscriptionUid ?? null,
            current?.data?.status ?? null,
            'ACTIVE',
            units(unitsBefore),
            units(record.unitsBought - record.unitsUsed),
            null,
            event.paymentUid,
            'SUCCEEDED',
            null,
            new Date().toISOString(),
            event.subscriberUid,
            [
              subscription
                ? `period:${event.subscriptionUid}:${event.currentPeriodEnd}`
                : `purchase:${event.paymentUid}`,
            ],
            [event.occurredAt.slice(0, 10)],
            [event.offerUid],
            [event.productUid],
            [subscription ? 'new_subscription' : 'unit_sold'],
            ['TND'],
            [1],
            [subscription ? 4500 : 2000],
            [subscription ? 1 : 0],
            ...(subscription ? [[event.accountKey], [event.productUid]] : []),
          ]),
        );
        if (pipelined) {
          const committed = client.query('COMMIT');
          await last;
          await committed;
          return;
        }
        await last;
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
}
