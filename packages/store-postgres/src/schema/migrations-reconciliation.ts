import { DEADLINE_PENDING, HEARD_IF_LIVE } from './due-index-keys.js';
import type { Migration } from './migration.js';

/** Reconciliation's bookkeeping: the due listing, pending payments and the locks under a lease. Steps 2, 4, 6, 11 (migrations.ts runs every step in version order). */
export const RECONCILIATION_MIGRATIONS: readonly Migration[] = [
  {
    version: 2,
    name: 'reconciliation: due entitlements and pending payments',
    statements: (t) => {
      // The same test as core's reconcileDeadline, on the JSON record, for the rows written before.
      const field = (name: string) => `(data->>'${name}')::timestamptz`;
      return [
        // Copied from the record by every write (see core's reconcileDeadline and isLiveSubscription),
        // so that listDueEntitlements is an indexed query; reconciled_at is written by markReconciled only.
        `ALTER TABLE ${t.entitlements}
          ADD COLUMN live_subscription boolean NOT NULL DEFAULT false,
          ADD COLUMN deadline_at timestamptz,
          ADD COLUMN last_event_at timestamptz,
          ADD COLUMN reconciled_at timestamptz`,
        `UPDATE ${t.entitlements} SET
          live_subscription = (data->>'type' = 'SUBSCRIPTION' AND data->>'status' <> 'REVOKED'
            AND subscription_uid IS NOT NULL),
          last_event_at = ${field('lastEventAt')},
          deadline_at = CASE WHEN data->>'type' = 'SUBSCRIPTION' AND subscription_uid IS NOT NULL THEN
            CASE data->>'status'
              WHEN 'TRIALING' THEN LEAST(${field('trialEndsAt')}, ${field('currentPeriodEnd')})
              WHEN 'ACTIVE' THEN ${field('currentPeriodEnd')}
              WHEN 'PRE_CANCELED' THEN COALESCE(${field('cancelAt')}, ${field('currentPeriodEnd')})
              WHEN 'IN_GRACE' THEN COALESCE(${field('graceEndsAt')}, ${field('currentPeriodEnd')})
            END
          END`,
        `CREATE INDEX ${t.index('entitlements_deadline_idx')} ON ${t.entitlements} (deadline_at)
          WHERE live_subscription`,
        `CREATE INDEX ${t.index('entitlements_heard_idx')} ON ${t.entitlements}
          (GREATEST(last_event_at, reconciled_at)) WHERE live_subscription`,
        `CREATE TABLE ${t.pendingPayments} (
          payment_uid text PRIMARY KEY,
          account_key text NOT NULL,
          product_uid text NOT NULL,
          offer_uid text NOT NULL,
          recorded_at timestamptz NOT NULL
        )`,
      ];
    },
  },
  {
    version: 4,
    name: 'pending payments: the checkout to continue; locks under a lease',
    statements: (t) => [
      `ALTER TABLE ${t.pendingPayments} ADD COLUMN checkout_url text, ADD COLUMN expires_at timestamptz`,
      `CREATE INDEX ${t.index('pending_payments_account_idx')} ON ${t.pendingPayments} (account_key)`,
      // A lock is a row, taken and released by one short statement each: holding one never holds
      // a pooled connection (a checkout holds it while it calls the service and writes).
      `CREATE TABLE ${t.locks} (
        name text PRIMARY KEY,
        token text NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
    ],
  },
  {
    version: 6,
    name: 'reconciliation: the due listing page by page from indexes',
    statements: (t) => [
      // The indexes of version 2 held the live subscriptions by date but not by key: each page of
      // the due listing filtered every live subscription by its paging key, and cost more the more
      // there were. These hold the key after the date, so a page checks its key in the index, among
      // the due rows only (see due-index-keys.ts and the store's due query).
      `DROP INDEX ${t.quotedSchema}.${t.index('entitlements_deadline_idx')}`,
      `DROP INDEX ${t.quotedSchema}.${t.index('entitlements_heard_idx')}`,
      `CREATE INDEX ${t.index('entitlements_due_deadline_idx')} ON ${t.entitlements}
        (deadline_at, account_key COLLATE "C", product_uid COLLATE "C") WHERE ${DEADLINE_PENDING}`,
      // INCLUDE: the columns of the key's expression, so that the scan never reads the table.
      `CREATE INDEX ${t.index('entitlements_due_heard_idx')} ON ${t.entitlements}
        ((${HEARD_IF_LIVE}), account_key COLLATE "C", product_uid COLLATE "C")
        INCLUDE (live_subscription, last_event_at, reconciled_at)`,
      // The statistics of the new expression now, not at autovacuum's next analyze (PGlite has
      // none): until then the planner would guess and read the whole table for each page.
      `ANALYZE ${t.entitlements}`,
    ],
  },
  {
    version: 11,
    name: 'pending payments: how each ended, why and on which line (indexed for pruning), and what the shop showed before consent',
    statements: (t) => [
      `ALTER TABLE ${t.pendingPayments}
        ADD COLUMN ended_status text, ADD COLUMN ended_failure_code text, ADD COLUMN ended_at timestamptz,
        ADD COLUMN ended_subscriber_uid text, ADD COLUMN shown jsonb`,
      // pruneEndedPayments reads the ended ones by when they ended; open ones stay out of it.
      `CREATE INDEX ${t.index('pending_payments_ended_idx')} ON ${t.pendingPayments} (ended_at)
        WHERE ended_status IS NOT NULL`,
    ],
  },
];
