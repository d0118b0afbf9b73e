import { formatPrice } from '@dcbkit/core';
import { type Language, translator } from '../../../starters/shop/src/i18n.js';
import type { Figures } from '../../metrics/sandbox-figures.js';
import { type Counted, nextBucket, type TruthBuckets } from '../../metrics/sandbox-truth.js';
import { type BusinessTruth, bucketSum } from './business-truth.js';

/**
 * The Business page as the sandbox's records say it must read, in one language: every table
 * (its header row, then per bucket its label and cells) and every headline card. The numbers come
 * from the truth alone; only the words (the page's messages) and the formats (`Intl` in the page's
 * language, core's formatPrice for money) are the page's own, so a number the kit got wrong shows.
 */
export interface ShownPage {
  /** By chart id: the table's rows, the header row first. */
  tables: Record<string, string[][]>;
  /** By figure id: its name, its value, and the previous period's value as its change says it. */
  headline: Record<string, { label: string; value: string; before: string }>;
}

/** A column of a table: its heading, and its cell for each bucket (or cohort month). */
type Column = [label: string, cell: (start: string) => string];

const NO_VALUE = '—';

/** The end of the bucket starting at `start`, in epoch milliseconds. */
const endOf = (start: string, interval: TruthBuckets['interval']) => Date.parse(nextBucket(start, interval));

/** A bucket's first day as the page names it: a month by its name, a day or a week by its date. */
function bucketLabel(start: string, interval: TruthBuckets['interval'], language: Language): string {
  const options: Intl.DateTimeFormatOptions =
    interval === 'month' ? { month: 'short', year: 'numeric' } : { dateStyle: 'medium' };
  return new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(new Date(start));
}

export function expectedPage(
  truth: BusinessTruth,
  figures: Figures,
  language: Language,
  offerUid: string,
): ShownPage {
  const t = translator(language);
  const number = new Intl.NumberFormat(language);
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  const { interval } = truth.query;
  const table = (columns: Column[]) => [
    [t(`ops.business.bucket.${interval}`), ...columns.map(([label]) => label)],
    ...truth.buckets.map((start) => [
      bucketLabel(start, interval, language),
      ...columns.map(([, cell]) => cell(start)),
    ]),
  ];
  // The cohorts' tables: by month whatever the interval, each row a cohort.
  const cohortTable = (columns: Column[]) => [
    [t('ops.business.bucket.cohort'), ...columns.map(([label]) => label)],
    ...truth.cohortMonths.map((month) => [
      bucketLabel(month, 'month', language),
      ...columns.map(([, cell]) => cell(month)),
    ]),
  ];
  const count =
    <Row>(map: ReadonlyMap<string, Row>, pick: (row: Row) => number) =>
    (start: string) =>
      number.format(bucketSum(map, start, offerUid, pick));
  const series = <Row>(map: ReadonlyMap<string, Row>, key: string, pick: (row: Row) => number): Column => [
    t(key),
    count(map, pick),
  ];

  const { counted, checkouts, lifecycle } = truth;
  const metrics = (names: Array<[string, (row: Counted) => number]>) =>
    table(names.map(([name, pick]) => series(counted, `ops.business.series.${name}`, pick)));

  // The checkout funnel's codes: one column per ending and code seen, in the names' order.
  const codeNames = [
    ...new Set(
      [...checkouts]
        .filter(([key]) => offerUid === '' || key.split('|')[1] === offerUid)
        .flatMap(([, row]) => [
          ...Object.keys(row.refused).map((code) => `refused:${code}`),
          ...Object.keys(row.failed).map((code) => `failed:${code}`),
        ]),
    ),
  ].sort();
  const byCode = (name: string) => {
    const [ending = '', code = ''] = name.split(':');
    return (row: { refused: Record<string, number>; failed: Record<string, number> }) =>
      (ending === 'refused' ? row.refused : row.failed)[code] ?? 0;
  };
  const total = (byCode: Readonly<Record<string, number>>) =>
    Object.values(byCode).reduce((a, b) => a + b, 0);

  // Revenue: per currency of the chosen subscription offers, money; a bucket not over says so.
  const chosenOffers = truth.subscriptionOffers.filter((one) => offerUid === '' || one.offerUid === offerUid);
  const currencies = [...new Set(chosenOffers.map((one) => one.currency))].sort();
  const moves = lifecycle.movements(interval);
  const money = (measure: string, index: number) =>
    currencies.map(
      (currency): Column => [
        t(`ops.business.series.revenue.${measure}`, { currency }),
        (start) => {
          const amount = bucketSum(moves, start, offerUid, (row) => row[index] as number, currency);
          const price = formatPrice({ amount, currency }, language);
          return endOf(start, interval) > lifecycle.now
            ? t('ops.business.cell.soFar', { value: price })
            : price;
        },
      ],
    );

  // Cohorts: a cohort's cells run from its month to the one holding the sandbox's clock.
  const cohortSize = (month: string) => bucketSum(lifecycle.cohorts, month, offerUid, ([size]) => size);
  const cellsOf = (month: string) => {
    const cells: string[] = [];
    for (let at = month; Date.parse(at) <= lifecycle.now; at = nextBucket(at, 'month')) cells.push(at);
    return cells;
  };
  const cohortMonths =
    chosenOffers.length === 0 ? 0 : Math.max(0, ...truth.cohortMonths.map((month) => cellsOf(month).length));
  const retention = Array.from(
    { length: cohortMonths },
    (_, k): Column => [
      t('ops.business.series.cohort.month', { k: number.format(k) }),
      (month) => {
        const size = cohortSize(month);
        const end = cellsOf(month)[k];
        if (size === 0 || end === undefined) return t('ops.business.cell.none');
        const retained = bucketSum(lifecycle.cohorts, month, offerUid, ([, cells]) => cells[k]?.[0] ?? 0);
        const shown = percent.format(retained / size);
        return endOf(end, 'month') <= lifecycle.now
          ? shown
          : t('ops.business.cell.incomplete', { value: shown });
      },
    ],
  );

  return {
    tables: {
      active: metrics([['activeSubscribers', (row) => row.activeSubscribers]]),
      growth: metrics([
        ['trialsStarted', (row) => row.trialsStarted],
        ['trialsConverted', (row) => row.trialsConverted],
        ['newSubscriptions', (row) => row.newSubscriptions],
      ]),
      renewals: metrics([
        ['renewalsCollected', (row) => row.renewalsCollected],
        ['renewalsFailed', (row) => row.renewalsFailed],
        ['graceRecovered', (row) => row.graceRecovered],
      ]),
      churn: metrics([
        ['churnedCanceled', (row) => row.churned.canceled],
        ['churnedExpired', (row) => row.churned.expired],
        ['churnedSuspended', (row) => row.churned.suspended],
        ['churnedRevoked', (row) => row.churned.revoked],
      ]),
      // The planted offers are all sold in TND.
      collected: table([
        [
          'TND',
          (start) =>
            formatPrice(
              { amount: bucketSum(counted, start, offerUid, (row) => row.collected), currency: 'TND' },
              language,
            ),
        ],
      ]),
      checkoutOutcomes: table([
        series(checkouts, 'ops.business.series.checkout.started', (row) => row.started),
        series(checkouts, 'ops.business.series.checkout.succeeded', (row) => row.succeeded),
        series(checkouts, 'ops.business.series.checkout.refused', (row) => total(row.refused)),
        series(checkouts, 'ops.business.series.checkout.failed', (row) => total(row.failed)),
        series(checkouts, 'ops.business.series.checkout.expired', (row) => row.expired),
        series(checkouts, 'ops.business.series.checkout.canceled', (row) => row.canceled),
        series(checkouts, 'ops.business.series.checkout.pending', (row) => row.pending),
      ]),
      checkoutCodes: table(
        codeNames.map((name): Column => {
          const [ending = '', code = ''] = name.split(':');
          // A failure the service gave no code for is named in the page's language.
          const shown = code === 'none' ? t('ops.business.series.checkout.code.none') : code;
          return [
            t(`ops.business.series.checkout.code.${ending}`, { code: shown }),
            count(checkouts, byCode(name)),
          ];
        }),
      ),
      trialOutcomes: table(
        ['started', 'converted', 'inTrial', 'canceled', 'failedToPay'].map((name, index) =>
          series(
            lifecycle.trialFunnel(interval),
            `ops.business.series.trial.${name}`,
            (row) => row[index] ?? 0,
          ),
        ),
      ),
      revenueMoves: table([
        ...money('newRevenue', 1),
        ...money('reactivatedRevenue', 3),
        ...money('churnedRevenue', 5),
        ...money('netRevenue', 6),
      ]),
      mrr: table(money('recurringRevenue', 7)),
      cohortSizes: cohortTable([
        [t('ops.business.series.cohort.size'), (month) => number.format(cohortSize(month))],
      ]),
      retention: cohortTable(retention),
    },
    headline: expectedHeadline(figures, language),
  };
}

/** The headline cards in `report.totals`' order: counts, money per currency, rates. */
export function expectedHeadline(figures: Figures, language: Language): ShownPage['headline'] {
  const t = translator(language);
  const number = new Intl.NumberFormat(language);
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  const card = (label: string, value: string, previous: string) => ({
    label,
    value,
    before: t('ops.business.headline.before', { previous }),
  });
  const rate = (value: number | null) => (value === null ? NO_VALUE : percent.format(value));
  const cards: ShownPage['headline'] = {
    activeSubscribers: card(
      t('ops.business.headline.figure.activeSubscribers'),
      number.format(figures.activeSubscribers.value ?? 0),
      number.format(figures.activeSubscribers.previous ?? 0),
    ),
  };
  for (const { currency, value, previous } of figures.recurringRevenue) {
    cards[`recurringRevenue-${currency}`] = card(
      t('ops.business.headline.figure.recurringRevenueIn', { currency }),
      formatPrice({ amount: value, currency }, language),
      formatPrice({ amount: previous, currency }, language),
    );
  }
  if (figures.recurringRevenue.length === 0) {
    cards.recurringRevenue = card(t('ops.business.headline.figure.recurringRevenue'), NO_VALUE, NO_VALUE);
  }
  for (const name of [
    'trialConversionRate',
    'churnRate',
    'firstAttemptCollectionRate',
    'graceRecoveryRate',
    'checkoutConversionRate',
  ] as const) {
    const figure = figures[name];
    cards[name] = card(t(`ops.business.headline.figure.${name}`), rate(figure.value), rate(figure.previous));
  }
  return cards;
}
