import { DEADLINE_PENDING, HEARD_IF_LIVE } from './due-index-keys.js';
import { lifecyclesTable } from './lifecycles-table.js';
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
    version: 5,
    name: 'ledger claims carry their holder’s token',
    statements: (t) => [
      // A late release (or completion) by a holder whose lease lapsed frees nothing of the delivery
      // that took the claim over: each claim names its holder.
      `ALTER TABLE ${t.events} ADD COLUMN claim_token text`,
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
    version: 7,
    name: 'the history of every decision',
    statements: (t) => [
      // One row per entry, appended and never changed; the serial id is the append order, which
      // lists newest first also among entries recorded in the same millisecond.
      `CREATE TABLE ${t.history} (
        id bigserial PRIMARY KEY,
        recorded_at timestamptz NOT NULL,
        account_key text NOT NULL,
        product_uid text NOT NULL,
        source text NOT NULL,
        decision text NOT NULL,
        event_name text,
        event_key text,
        occurred_at text,
        payment_uid text,
        subscription_uid text,
        status_before text,
        status_after text,
        units_before integer,
        units_after integer
      )`,
      `CREATE INDEX ${t.index('history_account_idx')} ON ${t.history} (account_key, id)`,
      // Pruning by age, after each reconcile run.
      `CREATE INDEX ${t.index('history_recorded_idx')} ON ${t.history} (recorded_at)`,
    ],
  },
  {
    version: 8,
    name: 'the business view: daily totals and the keys they counted',
    statements: (t) => [
      // Every fact's key, so that a fact seen again (a redelivery, a read, another instance at the
      // same moment) adds nothing. Kept past the history's pruning, as the totals are.
      `CREATE TABLE ${t.metricKeys} (
        key text PRIMARY KEY,
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`,
      // A year of daily metrics reads a few thousand of these rows, whatever the number of facts.
      `CREATE TABLE ${t.metricDays} (
        day date NOT NULL,
        offer_uid text NOT NULL,
        product_uid text NOT NULL,
        kind text NOT NULL,
        currency text NOT NULL,
        count bigint NOT NULL,
        amount bigint NOT NULL,
        live bigint NOT NULL,
        PRIMARY KEY (day, offer_uid, product_uid, kind, currency)
      )`,
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
  {
    version: 12,
    name: 'the event ledger: the entitlement each event was applied to, for the history of its copies',
    statements: (t) => [
      // Written by applyOnce with the event (null for events it did not apply, and for those the
      // two-phase ledger completed): a copy's history entry is then written by the statement that
      // finds the copy, with no lookup of its own.
      `ALTER TABLE ${t.events} ADD COLUMN account_key text, ADD COLUMN product_uid text`,
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
  {
    version: 14,
    name: 'the business view: a detail kept apart in the daily totals (the code of a checkout that was refused or failed)',
    statements: (t) => [
      // '' for the facts without one (every fact written before): a key column cannot be null.
      `ALTER TABLE ${t.metricDays} ADD COLUMN detail text NOT NULL DEFAULT ''`,
      `ALTER TABLE ${t.metricDays} DROP CONSTRAINT ${t.index('metric_days_pkey')}`,
      `ALTER TABLE ${t.metricDays} ADD PRIMARY KEY (day, offer_uid, product_uid, kind, currency, detail)`,
      // With a provisional key's totals (migration 13): its detail, moved with them.
      `ALTER TABLE ${t.metricKeys} ADD COLUMN detail text`,
    ],
  },
  {
    version: 15,
    name: "the business view: each subscription's lifecycle, for cohorts, revenue movements and the trial funnel",
    statements: (t) => {
      const table = lifecyclesTable(t);
      const utc = (time: string) => `(${time} AT TIME ZONE 'UTC')`;
      const paidEnd =
        'CASE WHEN first_paid_at IS NOT NULL AND ended_at IS NOT NULL THEN GREATEST(ended_at, first_paid_at) END';
      return [
        // core's SubscriptionLifecycle, one row per subscription, merged order-free by
        // store/lifecycle-methods.ts; its UTC days and months, which the views group by (stored:
        // a GROUP BY over a million rows that computes them costs several times more); and what
        // the subscriber's other rows make of it (the cohort: the month of the subscriber's first
        // paid charge and its offer; whether it is that first one; whether it is a returning
        // subscriber's), kept by the same writes under a lock on the subscriber.
        `CREATE TABLE ${table} (
          subscription_uid text PRIMARY KEY,
          account_key text NOT NULL,
          product_uid text NOT NULL,
          offer_uid text NOT NULL,
          currency text NOT NULL,
          monthly_value bigint NOT NULL,
          trial_started_at timestamptz,
          trial_started_provisional boolean,
          first_paid_at timestamptz,
          first_paid_provisional boolean,
          ended_at timestamptz,
          ended_provisional boolean,
          end_cause text,
          trial_day date GENERATED ALWAYS AS (${utc('trial_started_at')}::date) STORED,
          paid_day date GENERATED ALWAYS AS (${utc('first_paid_at')}::date) STORED,
          paid_month date GENERATED ALWAYS AS (date_trunc('month', ${utc('first_paid_at')})::date) STORED,
          end_day date GENERATED ALWAYS AS (${utc(paidEnd)}::date) STORED,
          end_month date GENERATED ALWAYS AS (date_trunc('month', ${utc(paidEnd)})::date) STORED,
          cohort_month date,
          cohort_offer_uid text,
          subscriber_first boolean NOT NULL DEFAULT false,
          reactivation boolean NOT NULL DEFAULT false
        )`,
        `CREATE INDEX ${t.index('lifecycles_subscriber_idx')} ON ${table} (account_key, product_uid)`,
        `CREATE INDEX ${t.index('lifecycles_cohort_idx')} ON ${table} (cohort_month) WHERE cohort_month IS NOT NULL`,
        `CREATE INDEX ${t.index('lifecycles_paid_idx')} ON ${table} (paid_day) WHERE paid_day IS NOT NULL`,
        `CREATE INDEX ${t.index('lifecycles_ended_idx')} ON ${table} (end_day) WHERE end_day IS NOT NULL`,
        `CREATE INDEX ${t.index('lifecycles_trial_idx')} ON ${table} (trial_day) WHERE trial_day IS NOT NULL`,
      ];
    },
  },
];

export const LATEST_VERSION = MIGRATIONS.reduce((latest, m) => Math.max(latest, m.version), 0);
