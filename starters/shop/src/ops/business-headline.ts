import { formatPrice, type MetricsReport } from '@dcbkit/core';

type MetricsTotals = MetricsReport['totals'];
type HeadlineFigure = MetricsTotals['activeSubscribers'];

import { directionOf, type Language, type Translate } from '../i18n.js';

/** Which way a figure moved against the previous period; 'none' when either side is unknown. */
export type Trend = 'up' | 'down' | 'same' | 'none';

/** One headline figure as the page shows it, every part already in the page's language. */
export interface ShownFigure {
  /** The figure's name in `report.totals` (a currency's recurring revenue: `recurringRevenue-TND`). */
  id: string;
  label: string;
  /** The value over the period, or "—" when there is none. */
  value: string;
  /** What the figure is not telling, and why, when it has no value; otherwise undefined. */
  note: string | undefined;
  /** The change, short, for the eye: "+2 · before: 10", "+3.5 pts · before: 22 %". */
  change: string;
  /** The same change as a sentence, for screen readers: "Up 2 from 10 in the previous period." */
  changeWords: string;
  trend: Trend;
  /** Whether the move is good news: churn going up is not. Only the colour tells it. */
  tone: 'good' | 'bad' | 'neutral';
}

interface HeadlineWords {
  t: Translate;
  lang: Language;
}

/** How one kind of figure writes its value and its signed difference. */
interface FigureFormat {
  value(value: number): string;
  /** The difference with its sign, for the eye. */
  signedChange(change: number): string;
  /** The size of the difference, for the sentence that says which way it went. */
  changeSize(change: number): string;
}

const NO_VALUE = '—';
const RATES = [
  'trialConversionRate',
  'churnRate',
  'firstAttemptCollectionRate',
  'graceRecoveryRate',
  'checkoutConversionRate',
] as const;
/** The figures whose fall is good news; for every other one a rise is. */
const LOWER_IS_BETTER = new Set<string>(['churnRate']);

/**
 * A signed number kept left to right in a right-to-left line: Arabic's "قبل: 0 · +24" would
 * otherwise show its sign after the digits (24+). Unicode's isolates (LRI … PDI), so the words
 * around the number keep their own direction.
 */
function signedNumberIn(lang: Language): (signed: string) => string {
  return directionOf(lang) === 'rtl' ? (signed) => `\u2066${signed}\u2069` : (signed) => signed;
}

function countFormat(lang: Language): FigureFormat {
  const number = new Intl.NumberFormat(lang);
  const signed = new Intl.NumberFormat(lang, { signDisplay: 'exceptZero' });
  const isolated = signedNumberIn(lang);
  return {
    value: (value) => number.format(value),
    signedChange: (change) => isolated(signed.format(change)),
    changeSize: (change) => number.format(Math.abs(change)),
  };
}

/** Rates are fractions; their change is in percentage points, not a percent of a percent. */
function rateFormat({ t, lang }: HeadlineWords): FigureFormat {
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
  const points = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  const signedPoints = new Intl.NumberFormat(lang, { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
  // Rounded once, so that 0.1 + 0.2 reads 30 % and its change 10 points, never 10.000000000000002.
  const inPoints = (change: number) => Math.round(change * 1000) / 10;
  const isolated = signedNumberIn(lang);
  return {
    value: (value) => percent.format(value),
    signedChange: (change) =>
      t('ops.business.headline.points', { points: isolated(signedPoints.format(inPoints(change))) }),
    changeSize: (change) =>
      t('ops.business.headline.pointsWords', { points: points.format(Math.abs(inPoints(change))) }),
  };
}

/** Money in minor units, written by core's formatPrice as the charts' tables write it. */
function moneyFormat(currency: string, lang: Language): FigureFormat {
  const money = (amount: number) => formatPrice({ amount, currency }, lang);
  return {
    value: money,
    // formatPrice signs a negative amount itself; a rise gets its "+" here.
    signedChange: (change) => (change > 0 ? `+${money(change)}` : money(change)),
    changeSize: (change) => money(Math.abs(change)),
  };
}

function trendOf(figure: HeadlineFigure, format: FigureFormat): Trend {
  if (figure.value === null || figure.previous === null) return 'none';
  // A change too small to show (a rate's 0.01 point) reads as unchanged, as the number shown says.
  if (format.changeSize(figure.value - figure.previous) === format.changeSize(0)) return 'same';
  return figure.value > figure.previous ? 'up' : 'down';
}

function shownFigure(
  id: string,
  label: string,
  figure: HeadlineFigure,
  format: FigureFormat,
  note: string,
  { t }: HeadlineWords,
): ShownFigure {
  const value = figure.value === null ? NO_VALUE : format.value(figure.value);
  const previous = figure.previous === null ? NO_VALUE : format.value(figure.previous);
  const trend = trendOf(figure, format);
  const rising = trend === 'up';
  const better = LOWER_IS_BETTER.has(id) ? !rising : rising;
  const difference = (figure.value ?? 0) - (figure.previous ?? 0);
  const before = t('ops.business.headline.before', { previous });
  return {
    id,
    label,
    value,
    note: figure.value === null ? note : undefined,
    change: trend === 'none' ? before : `${format.signedChange(difference)} · ${before}`,
    changeWords: t(`ops.business.headline.trend.${trend}`, {
      change: format.changeSize(difference),
      // A dash is no word: a screen reader is told "no data".
      previous: figure.previous === null ? t('ops.business.headline.noData') : previous,
    }),
    trend,
    tone: trend === 'up' || trend === 'down' ? (better ? 'good' : 'bad') : 'neutral',
  };
}

/**
 * The headline figures of `report.totals` as the page's cards, in `report.totals`' order: active
 * subscribers, recurring revenue per currency, then the rates. A figure with no value says why
 * (nothing it measures happened in the period, or the store does not tell it yet) rather than
 * showing a bare dash: the rendering reads only the data, whichever store answers.
 */
export function headlineFigures(totals: MetricsTotals, words: HeadlineWords): ShownFigure[] {
  const { t, lang } = words;
  const named = (name: string) => t(`ops.business.headline.figure.${name}`);
  const why = (name: string) => t(`ops.business.headline.empty.${name}`);
  const revenue =
    totals.recurringRevenue.length === 0
      ? [
          shownFigure(
            'recurringRevenue',
            named('recurringRevenue'),
            { value: null, previous: null },
            countFormat(lang),
            why('recurringRevenue'),
            words,
          ),
        ]
      : totals.recurringRevenue.map(({ currency, value, previous }) =>
          shownFigure(
            `recurringRevenue-${currency}`,
            t('ops.business.headline.figure.recurringRevenueIn', { currency }),
            { value, previous },
            moneyFormat(currency, lang),
            why('recurringRevenue'),
            words,
          ),
        );
  const rates = rateFormat(words);
  return [
    shownFigure(
      'activeSubscribers',
      named('activeSubscribers'),
      totals.activeSubscribers,
      countFormat(lang),
      why('activeSubscribers'),
      words,
    ),
    ...revenue,
    ...RATES.map((name) => shownFigure(name, named(name), totals[name], rates, why(name), words)),
  ];
}
