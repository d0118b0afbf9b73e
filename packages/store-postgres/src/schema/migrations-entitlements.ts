import type { Migration } from './migration.js';

/** The entitlements, their facts (payments, units) and phone lines, and the event ledger. Steps 1, 3, 5, 9, 10, 13 (migrations.ts runs every step in version order). */
export const ENTITLEMENT_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'entitlements and the event ledger',
    statements: (t) => [
      // The record is plain JSON (see core's entitlementSchema): kept whole in `data`, with the
      // two fields that are searched copied into indexed columns by the same write.
      `CREATE TABLE ${t.entitlements} (
        account_key text NOT NULL,
        product_uid text NOT NULL,
        subscription_uid text,
        payment_uids text[] NOT NULL DEFAULT '{}',
        data jsonb NOT NULL,
        -- Bumped by every write: an update that read version n writes only if it is still n.
        version bigint NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_key, product_uid)
      )`,
      `CREATE INDEX ${t.index('entitlements_subscription_idx')} ON ${t.entitlements} (subscription_uid)
        WHERE subscription_uid IS NOT NULL`,
      `CREATE INDEX ${t.index('entitlements_payments_idx')} ON ${t.entitlements} USING gin (payment_uids)`,
      // One row per webhook event: in progress (with a lease) while a delivery is processed,
      // completed afterwards. The key is hashed so that any length fits the primary key; the key
      // itself is kept for whoever looks at the table.
      `CREATE TABLE ${t.events} (
        key_hash bytea PRIMARY KEY,
        event_key text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
        lease_until timestamptz,
        claimed_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CHECK ((state = 'in_progress') = (lease_until IS NOT NULL))
      )`,
      // For prune: completed events by age, and the (few) claims in progress by lease.
      `CREATE INDEX ${t.index('events_completed_idx')} ON ${t.events} (completed_at) WHERE state = 'completed'`,
      `CREATE INDEX ${t.index('events_lease_idx')} ON ${t.events} (lease_until) WHERE state = 'in_progress'`,
    ],
  },
  {
    version: 3,
    name: 'entitlement facts: payments and units beside the record, which keeps counts',
    statements: (t) => {
      // An id list of the old record, as a JSON array whatever the row holds (a missing field: none).
      const ids = (field: string) =>
        `CASE WHEN jsonb_typeof(data->'${field}') = 'array' THEN data->'${field}' ELSE '[]'::jsonb END`;
      return [
        // A payment belongs to one entitlement, so its uid alone is the key (and findByPaymentUid's index).
        `CREATE TABLE ${t.entitlementPayments} (
          payment_uid text PRIMARY KEY,
          account_key text NOT NULL,
          product_uid text NOT NULL
        )`,
        `CREATE TABLE ${t.entitlementUnits} (
          account_key text NOT NULL,
          product_uid text NOT NULL,
          order_id text NOT NULL,
          PRIMARY KEY (account_key, product_uid, order_id)
        )`,
        // A uid two old rows shared goes to the one the old lookup found first.
        `INSERT INTO ${t.entitlementPayments} (payment_uid, account_key, product_uid)
          SELECT DISTINCT ON (paid.uid) paid.uid, account_key, product_uid
          FROM ${t.entitlements} CROSS JOIN LATERAL unnest(payment_uids) AS paid (uid)
          ORDER BY paid.uid, account_key COLLATE "C", product_uid COLLATE "C"`,
        `INSERT INTO ${t.entitlementUnits} (account_key, product_uid, order_id)
          SELECT DISTINCT account_key, product_uid, unit.order_id
          FROM ${t.entitlements} CROSS JOIN LATERAL jsonb_array_elements_text(${ids('unitOrderIds')}) AS unit (order_id)`,
        // A write like any other, so it bumps the version: a compare-and-set that read the old
        // record cannot land on the new one.
        `UPDATE ${t.entitlements} SET
          data = (data - 'paymentUids' - 'unitOrderIds' - 'usedOrderIds') || jsonb_build_object(
            'unitsBought', jsonb_array_length(${ids('unitOrderIds')}),
            'unitsUsed', jsonb_array_length(${ids('usedOrderIds')})),
          version = version + 1`,
        `DROP INDEX ${t.quotedSchema}.${t.index('entitlements_payments_idx')}`,
        `ALTER TABLE ${t.entitlements} DROP COLUMN payment_uids`,
      ];
    },
  },
  {
    version: 5,
    name: 'ledger claims carry their holder’s token',
    statements: (t) => [
      // A late release (or completion) by a holder whose lease lapsed frees nothing of the delivery
      // that took the claim over: each claim names its holder.
      `ALTER TABLE ${t.events} ADD COLUMN claim_token text`,
    ],
  },
  {
    version: 9,
    name: 'units that sell time: how long a spent unit gives access, and until when',
    statements: (t) => [
      // Every record carries both fields of core's entitlementSchema. Those written before get null:
      // their units give access while left, until an event of their offer brings its terms. A write
      // like any other, so it bumps the version: a compare-and-set that read the old record cannot
      // land on the new one. (`->` rather than `?`, which some drivers take for a placeholder.)
      `UPDATE ${t.entitlements} SET
        data = jsonb_build_object('unitAccessSeconds', null, 'unitAccessEndsAt', null) || data,
        version = version + 1
        WHERE data->'unitAccessSeconds' IS NULL OR data->'unitAccessEndsAt' IS NULL`,
    ],
  },
  {
    version: 10,
    name: 'phone lines: the entitlements of a subscriberUid, and the line a history entry names',
    statements: (t) => [
      // Every record already carries its subscriberUid in data: an index on that expression finds
      // a line's entitlements across accounts without a column to keep in step with the record.
      `CREATE INDEX ${t.index('entitlements_line_idx')} ON ${t.entitlements}
        ((data->>'subscriberUid'), account_key COLLATE "C", product_uid COLLATE "C")
        WHERE data->>'subscriberUid' IS NOT NULL`,
      `ALTER TABLE ${t.history} ADD COLUMN subscriber_uid text`,
      `ANALYZE ${t.entitlements}`,
    ],
  },
  {
    version: 13,
    name: 'the business view: a fact told by a read kept with its totals, until its event settles its day',
    statements: (t) => [
      // Null but for a provisional key (core's MetricEntry.provisional): what it added, and where,
      // so that the event it stood for can move it to the event's own day. Keys written before
      // were settled ones.
      `ALTER TABLE ${t.metricKeys} ADD COLUMN day date, ADD COLUMN offer_uid text, ADD COLUMN product_uid text,
        ADD COLUMN kind text, ADD COLUMN currency text, ADD COLUMN count bigint, ADD COLUMN amount bigint,
        ADD COLUMN live bigint`,
    ],
  },
];
