import { formatPrice, type MetricsReport } from '@dcbkit/core';

type MetricsTotals = MetricsReport['totals'];

import { describe, expect, it } from 'vitest';
import { translator } from '../i18n.js';
import { headlineFigures } from './business-headline.js';

const nothing = { value: null, previous: null };
const TOTALS: MetricsTotals = {
  activeSubscribers: { value: 12, previous: 10 },
  recurringRevenue: [
    { currency: 'EUR', value: 1_000, previous: 1_000 },
    { currency: 'TND', value: 40_500, previous: 45_000 },
  ],
  trialConversionRate: { value: 0.25, previous: 0.2 },
  churnRate: { value: 0.1 + 0.2, previous: 0.2 },
  firstAttemptCollectionRate: { value: 0.9, previous: 0.90001 },
  graceRecoveryRate: { value: null, previous: 0.5 },
  checkoutConversionRate: nothing,
};

const inEnglish = () => headlineFigures(TOTALS, { t: translator('en'), lang: 'en' });
const byId = (figures: ReturnType<typeof inEnglish>) => new Map(figures.map((figure) => [figure.id, figure]));

// Figures the planted histories of the route tests cannot reach yet (money, rates on both sides).
describe('the headline figures in words', () => {
  it('writes money per currency with core’s formatting, its change signed', () => {
    const figures = byId(inEnglish());
    const tnd = (amount: number) => formatPrice({ amount, currency: 'TND' }, 'en');
    expect(figures.get('recurringRevenue-TND')).toMatchObject({
      label: 'Recurring revenue per month (TND)',
      value: tnd(40_500),
      change: `${tnd(-4_500)} · before: ${tnd(45_000)}`,
      changeWords: `Down ${tnd(4_500)} from ${tnd(45_000)} in the previous period.`,
      trend: 'down',
      tone: 'bad',
    });
    expect(figures.get('recurringRevenue-EUR')).toMatchObject({ trend: 'same', tone: 'neutral' });
  });

  it('says a rate’s change in percentage points, rounded as shown, churn going up as bad news', () => {
    const figures = byId(inEnglish());
    expect(figures.get('trialConversionRate')).toMatchObject({
      value: '25%',
      change: '+5 pts · before: 20%',
      changeWords: 'Up 5 percentage points from 20% in the previous period.',
      tone: 'good',
    });
    // 0.1 + 0.2 is 0.30000000000000004: 30 % and 10 points, nothing more.
    expect(figures.get('churnRate')).toMatchObject({
      value: '30%',
      change: '+10 pts · before: 20%',
      tone: 'bad',
    });
    // A change smaller than what is shown reads unchanged.
    expect(figures.get('firstAttemptCollectionRate')).toMatchObject({ trend: 'same', value: '90%' });
  });

  it('shows a dash and why when a figure has no value, and the previous one when it had', () => {
    const figures = byId(inEnglish());
    expect(figures.get('graceRecoveryRate')).toMatchObject({
      value: '—',
      note: 'No data: no renewal failed into grace in the period.',
      change: 'before: 50%',
      changeWords: 'Previous period: 50%.',
      trend: 'none',
    });
    expect(figures.get('checkoutConversionRate')?.changeWords).toBe('Previous period: no data.');
  });

  it('keeps one card for recurring revenue when no currency is told', () => {
    const figures = headlineFigures({ ...TOTALS, recurringRevenue: [] }, { t: translator('en'), lang: 'en' });
    expect(figures.map((figure) => figure.id)).toEqual([
      'activeSubscribers',
      'recurringRevenue',
      'trialConversionRate',
      'churnRate',
      'firstAttemptCollectionRate',
      'graceRecoveryRate',
      'checkoutConversionRate',
    ]);
    expect(figures[1]?.value).toBe('—');
  });

  it('writes French percents and keeps an Arabic sign before its digits', () => {
    const french = byId(headlineFigures(TOTALS, { t: translator('fr'), lang: 'fr' }));
    expect(french.get('trialConversionRate')?.value).toBe(
      new Intl.NumberFormat('fr', { style: 'percent' }).format(0.25),
    );
    const arabic = byId(headlineFigures(TOTALS, { t: translator('ar'), lang: 'ar' }));
    const signed = new Intl.NumberFormat('ar', { signDisplay: 'exceptZero' }).format(2);
    expect(arabic.get('activeSubscribers')?.change).toContain(`\u2066${signed}\u2069`);
  });
});
