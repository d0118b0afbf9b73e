import { lifecyclesTable } from './lifecycles-table.js';
import type { Migration } from './migration.js';

/** The history of every decision and the business view: daily totals, their keys, lifecycles. Steps 7, 8, 12, 14, 15 (migrations.ts runs every step in version order). */
export const BUSINESS_MIGRATIONS: readonly Migration[] = [
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
