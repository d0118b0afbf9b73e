import type { TableNames } from './table-names.js';

/**
 * One step of the schema. Shipped as code (not .sql files) so that it is inside the published
 * bundle with nothing to copy, and takes the validated, quoted table names. Never edit a released
 * step: add the next one.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Single statements (both drivers run one statement per query with parameters). */
  statements(names: TableNames): readonly string[];
}

export const MIGRATIONS: readonly Migration[] = [
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
];

export const LATEST_VERSION = MIGRATIONS.reduce((latest, m) => Math.max(latest, m.version), 0);
