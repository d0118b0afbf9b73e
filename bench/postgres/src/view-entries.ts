/**
 * The business views bench/postgres times at scale, one entry each. A new view of the kit (the
 * checkout funnel, cohorts, movements) is one more entry: how to fill its own tables in bulk with
 * a year of `subscribers`, and how to read it once as the Business page does.
 */
import { type DcbKit, defineOffers, type MetricsReport } from '@dcbkit/core';
import type { TableNames } from '@dcbkit/store-postgres';
import type pg from 'pg';
import { fillCheckoutFacts, plantedRefusals } from './bulk-checkout-facts.js';
import { fillMetricFacts, PLANS, plantedActiveAtYearEnd } from './bulk-metric-facts.js';

export type ViewInterval = MetricsReport['interval'];

export interface ViewAtScale {
  name: string;
  /** Writes a year of the view's facts for `subscribers` into the store's tables; returns the facts written. */
  fill(pool: pg.Pool, tables: TableNames, subscribers: number): Promise<number>;
  /** Reads the view once over [from, to) by `interval`; returns how many rows it answered. */
  read(kit: DcbKit, query: { from: Date; to: Date; interval: ViewInterval }): Promise<number>;
  /** What the view answered against what the fill planted, in words; throws when they differ. */
  check(kit: DcbKit, year: { from: Date; to: Date }, subscribers: number): Promise<string>;
}

/** The offers the bulk facts name (bulk-metric-facts.ts' PLANS), as the kit must know them. */
export const benchOffers = defineOffers(
  PLANS.map((plan) =>
    plan.productUid === 'prod_pass'
      ? {
          offerUid: plan.offerUid,
          productUid: plan.productUid,
          name: plan.offerUid,
          type: 'CONSUMABLE' as const,
          price: { amount: plan.amount, currency: 'TND' },
        }
      : {
          offerUid: plan.offerUid,
          productUid: plan.productUid,
          name: plan.offerUid,
          type: 'SUBSCRIPTION' as const,
          price: { amount: plan.amount, currency: 'TND' },
          billingPeriod: {
            unit: plan.offerUid === 'off_weekly' ? ('WEEK' as const) : ('MONTH' as const),
            count: 1,
          },
          trialDays: plan.offerUid === 'off_trial' ? 7 : 0,
        },
  ),
);

export const VIEWS_AT_SCALE: readonly ViewAtScale[] = [
  {
    name: 'kit.metrics',
    fill: (pool, tables, subscribers) => fillMetricFacts(pool, tables, subscribers),
    read: async (kit, query) => (await kit.metrics(query)).rows.length,
    check: async (kit, year, subscribers) => {
      const report = await kit.metrics({ ...year, interval: 'month' });
      const last = report.rows.filter((row) => row.start === report.rows.at(-1)?.start);
      const active = last.reduce((sum, row) => sum + row.activeSubscribers, 0);
      const planted = plantedActiveAtYearEnd(subscribers);
      if (active !== planted)
        throw new Error(`kit.metrics read ${active} active subscribers, the fill planted ${planted}`);
      return `${active.toLocaleString('en')} active subscribers at the year's end, as planted`;
    },
  },
  {
    name: 'kit.checkoutFunnel',
    fill: (pool, tables, subscribers) => fillCheckoutFacts(pool, tables, subscribers),
    read: async (kit, query) => (await kit.checkoutFunnel(query)).rows.length,
    check: async (kit, year, subscribers) => {
      const { rows } = await kit.checkoutFunnel({ ...year, interval: 'month' });
      const started = rows.reduce((sum, row) => sum + row.started, 0);
      const refused = rows.reduce((sum, row) => sum + (row.refused['RSK-101'] ?? 0), 0);
      if (started !== subscribers || refused !== plantedRefusals(subscribers))
        throw new Error(
          `kit.checkoutFunnel read ${started} started and ${refused} refused, the fill planted ${subscribers} and ${plantedRefusals(subscribers)}`,
        );
      return `${started.toLocaleString('en')} checkouts started and ${refused.toLocaleString('en')} refused (RSK-101), as planted`;
    },
  },
];
