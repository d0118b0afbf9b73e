import assert from 'node:assert/strict';
import type { MetricDay } from '../../metrics/metric-day.js';
import type { MetricEntry } from '../../metrics/metric-entry.js';
import type { MetricsStore } from '../metrics-store.js';
import { uniqueId } from './example-entitlement.js';
import { type ConformanceCheck, type ConformanceOptions, runChecks } from './test-runner.js';

/** A fact of `offerUid` (unique per check, so checks sharing a database stay apart). */
function fact(offerUid: string, occurredAt: string, fields: Partial<MetricEntry> = {}): MetricEntry {
  return {
    key: uniqueId('fact'),
    kind: 'renewal_collected',
    offerUid,
    productUid: `prod_of_${offerUid}`,
    occurredAt,
    count: 1,
    amount: 4500,
    currency: 'TND',
    live: 0,
    ...fields,
  };
}

/** The offer's totals, sorted, as plain JSON. */
async function totalsOf(store: MetricsStore, offerUid: string, from = '2000-01-01', to = '2100-01-01') {
  const { days } = await store.readMetricDays({ from, to });
  return days
    .filter((day) => day.offerUid === offerUid)
    .map((day): MetricDay => ({ ...day }))
    .sort((a, b) =>
      `${a.day}${a.kind}${a.currency}${a.detail ?? ''}`.localeCompare(
        `${b.day}${b.kind}${b.currency}${b.detail ?? ''}`,
      ),
    );
}

function liveOf(found: { liveBefore: ReadonlyArray<{ offerUid: string; live: number }> }, offerUid: string) {
  return found.liveBefore.find((before) => before.offerUid === offerUid)?.live ?? 0;
}

export const metricsChecks: readonly ConformanceCheck<MetricsStore>[] = [
  {
    name: 'facts come back as daily totals per kind and currency, every field kept',
    async run(store) {
      const offer = uniqueId('offer');
      await store.recordMetrics([
        fact(offer, '2030-06-01T08:00:00.000Z', { kind: 'new_subscription', live: 1 }),
        fact(offer, '2030-06-01T09:30:00.000Z', { kind: 'new_subscription', live: 1, amount: 3000 }),
        fact(offer, '2030-06-01T10:00:00.000Z', { kind: 'churn_canceled', amount: 0, live: -1 }),
        fact(offer, '2030-06-01T11:00:00.000Z', { kind: 'new_subscription', currency: 'EUR', amount: 150 }),
        fact(offer, '2030-06-02T00:00:00.000Z', { kind: 'unit_spent', count: 3, amount: 0 }),
      ]);
      const common = { offerUid: offer, productUid: `prod_of_${offer}` };
      assert.deepStrictEqual(await totalsOf(store, offer), [
        {
          ...common,
          day: '2030-06-01',
          kind: 'churn_canceled',
          currency: 'TND',
          count: 1,
          amount: 0,
          live: -1,
        },
        {
          ...common,
          day: '2030-06-01',
          kind: 'new_subscription',
          currency: 'EUR',
          count: 1,
          amount: 150,
          live: 0,
        },
        {
          ...common,
          day: '2030-06-01',
          kind: 'new_subscription',
          currency: 'TND',
          count: 2,
          amount: 7500,
          live: 2,
        },
        { ...common, day: '2030-06-02', kind: 'unit_spent', currency: 'TND', count: 3, amount: 0, live: 0 },
      ]);
    },
  },
  {
    name: 'a key counts once: repeated in one call, in a later call, or in calls at the same moment',
    async run(store) {
      const offer = uniqueId('offer');
      const once = fact(offer, '2030-06-01T08:00:00.000Z', { live: 1 });
      const other = fact(offer, '2030-06-01T08:30:00.000Z', { kind: 'unit_sold' });
      assert.deepStrictEqual(
        await store.recordMetrics([once, other, { ...once, amount: 2 }]),
        [once, other],
        'resolves to the entries it counted, the first of a repeated key',
      );
      assert.deepStrictEqual(await store.recordMetrics([{ ...once, amount: 1 }]), []);
      const racing = fact(offer, '2030-06-01T09:00:00.000Z', { kind: 'trial_started', amount: 0 });
      const counted = await Promise.all(Array.from({ length: 6 }, () => store.recordMetrics([racing])));
      assert.equal(counted.flat().length, 1, 'one of the calls at the same moment counted it');
      const totals = await totalsOf(store, offer);
      assert.deepStrictEqual(
        totals.map(({ kind, count, amount, live }) => ({ kind, count, amount, live })),
        [
          { kind: 'renewal_collected', count: 1, amount: 4500, live: 1 },
          { kind: 'trial_started', count: 1, amount: 0, live: 0 },
          { kind: 'unit_sold', count: 1, amount: 4500, live: 0 },
        ],
      );
    },
  },
  {
    name: 'days are UTC days: from included, to excluded; the live subscribers before from are summed',
    async run(store) {
      const offer = uniqueId('offer');
      await store.recordMetrics([
        fact(offer, '2030-05-30T12:00:00.000Z', { kind: 'new_subscription', live: 1 }),
        fact(offer, '2030-05-31T23:59:59.999Z', { kind: 'new_subscription', live: 1 }),
        fact(offer, '2030-06-01T00:00:00.000Z', { kind: 'trial_started', live: 1 }),
        fact(offer, '2030-06-02T23:00:00.000Z', { kind: 'churn_expired', live: -1 }),
        fact(offer, '2030-06-03T00:00:00.000Z', { kind: 'churn_expired', live: -1 }),
      ]);
      const found = await store.readMetricDays({ from: '2030-06-01', to: '2030-06-03' });
      const mine = found.days.filter((day) => day.offerUid === offer);
      assert.deepStrictEqual(mine.map((day) => `${day.day} ${day.kind}`).sort(), [
        '2030-06-01 trial_started',
        '2030-06-02 churn_expired',
      ]);
      assert.equal(liveOf(found, offer), 2, 'the two subscriptions started before June 1');
      const later = await store.readMetricDays({ from: '2030-06-04', to: '2030-06-05' });
      assert.equal(liveOf(later, offer), 1, 'everything before June 4: 3 started, 2 ended');
    },
  },
  {
    name: 'a provisional fact moves, once, to the day of the first settled fact of its key',
    async run(store) {
      const offer = uniqueId('offer');
      const read = fact(offer, '2030-06-05T10:00:00.000Z', {
        kind: 'churn_canceled',
        amount: 0,
        live: -1,
        provisional: true,
      });
      const event = {
        ...read,
        occurredAt: '2030-06-02T08:00:00.000Z',
        live: 0 as const,
        provisional: undefined,
      };
      assert.deepStrictEqual(await store.recordMetrics([read]), [read], 'a provisional fact counts when new');
      assert.deepStrictEqual(
        await store.recordMetrics([{ ...read, occurredAt: '2030-06-03T00:00:00.000Z' }]),
        [],
      );
      assert.deepStrictEqual(await store.recordMetrics([event]), [], 'settling it counts nothing new');
      assert.deepStrictEqual(
        await store.recordMetrics([{ ...event, occurredAt: '2030-06-09T00:00:00.000Z' }]),
        [],
      );
      const other = fact(offer, '2030-06-04T00:00:00.000Z', { kind: 'renewal_collected', provisional: true });
      await store.recordMetrics([other]);
      await store.recordMetrics([
        { ...other, occurredAt: '2030-06-04T23:00:00.000Z', provisional: undefined },
      ]);
      const totals = await totalsOf(store, offer);
      assert.deepStrictEqual(
        totals.map(({ day, kind, count, amount, live }) => ({ day, kind, count, amount, live })),
        [
          // On the settled day, with the count, money and live change the read recorded.
          { day: '2030-06-02', kind: 'churn_canceled', count: 1, amount: 0, live: -1 },
          { day: '2030-06-04', kind: 'renewal_collected', count: 1, amount: 4500, live: 0 },
        ],
      );
    },
  },
  {
    name: 'facts of one kind with different details (a checkout refused RSK-101 or SUB-108) are kept apart, and a provisional one moves with its detail',
    async run(store) {
      const offer = uniqueId('offer');
      const checkout = { kind: 'checkout_refused' as const, amount: 0 };
      const moved = fact(offer, '2030-06-05T10:00:00.000Z', {
        ...checkout,
        detail: 'CAT-109',
        provisional: true,
      });
      await store.recordMetrics([
        fact(offer, '2030-06-01T08:00:00.000Z', { ...checkout, detail: 'RSK-101' }),
        fact(offer, '2030-06-01T09:00:00.000Z', { ...checkout, detail: 'SUB-108' }),
        fact(offer, '2030-06-01T10:00:00.000Z', { ...checkout, detail: 'SUB-108' }),
        fact(offer, '2030-06-01T11:00:00.000Z', { ...checkout }),
        moved,
      ]);
      await store.recordMetrics([
        { ...moved, occurredAt: '2030-06-02T00:00:00.000Z', provisional: undefined },
      ]);
      const totals = await totalsOf(store, offer);
      assert.deepStrictEqual(
        totals.map(({ day, kind, detail, count }) => ({ day, kind, detail, count })),
        [
          { day: '2030-06-01', kind: 'checkout_refused', detail: undefined, count: 1 },
          { day: '2030-06-01', kind: 'checkout_refused', detail: 'RSK-101', count: 1 },
          { day: '2030-06-01', kind: 'checkout_refused', detail: 'SUB-108', count: 2 },
          { day: '2030-06-02', kind: 'checkout_refused', detail: 'CAT-109', count: 1 },
        ],
        "a MetricDay carries its facts' detail, and none when they had none",
      );
    },
  },
  {
    name: 'an empty call and an empty range are answered, not refused',
    async run(store) {
      await store.recordMetrics([]);
      const offer = uniqueId('offer');
      const found = await store.readMetricDays({ from: '1990-01-01', to: '1990-01-02' });
      assert.deepStrictEqual(
        found.days.filter((day) => day.offerUid === offer),
        [],
      );
      assert.equal(liveOf(found, offer), 0);
    },
  },
];

/**
 * Registers the MetricsStore checks, each on a fresh store from `factory` (a store may share one
 * database across checks: every check writes its own offers). Pass `describe` and `it` from your
 * test runner, or use its globals.
 *
 * @example
 * runMetricsConformance(() => myStore(), { name: 'myStore', describe, it });
 */
export function runMetricsConformance(
  factory: () => MetricsStore | Promise<MetricsStore>,
  options: ConformanceOptions<MetricsStore> = {},
): void {
  runChecks('runMetricsConformance', 'MetricsStore conformance', metricsChecks, factory, options);
}
