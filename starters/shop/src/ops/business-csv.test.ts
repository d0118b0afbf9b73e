import { describe, expect, it } from 'vitest';
import { metricsRow } from '../test-support/metrics-rows.js';
import { businessCsv, businessCsvName, csvCell } from './business-csv.js';

const HEADER =
  'start,offerUid,productUid,activeSubscribers,trialsStarted,trialsConverted,newSubscriptions,renewalsCollected,' +
  'renewalsFailed,graceRecovered,churnedCanceled,churnedExpired,churnedSuspended,churnedRevoked,unitsSold,' +
  'unitsSpent,unlocksSold,collectedMinorUnits,currency';

describe('the Business page’s CSV', () => {
  const rows = [
    metricsRow('2030-01-07T00:00:00.000Z', 'offer_premium_monthly', {
      activeSubscribers: 2,
      trialsStarted: 1,
      churned: { expired: 1, revoked: 2 },
      collected: { amount: 4500, currency: 'TND' },
    }),
    metricsRow('2030-01-07T00:00:00.000Z', 'offer_day_pass', { unitsSold: 3, unitsSpent: 1 }),
  ];

  it('writes a header, then one line per row: money in minor units with its currency, churn per cause', () => {
    expect(businessCsv(rows, '').split('\r\n')).toEqual([
      HEADER,
      '2030-01-07T00:00:00.000Z,offer_premium_monthly,prod_of_offer_premium_monthly,2,1,0,0,0,0,0,0,1,0,2,0,0,0,4500,TND',
      '2030-01-07T00:00:00.000Z,offer_day_pass,prod_of_offer_day_pass,0,0,0,0,0,0,0,0,0,0,0,3,1,0,0,TND',
      '',
    ]);
  });

  it('keeps only the chosen offer’s rows', () => {
    const lines = businessCsv(rows, 'offer_day_pass').trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^2030-01-07T00:00:00\.000Z,offer_day_pass,/);
  });

  it('never lets a cell be read as a formula, and quotes what needs it', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('offer_day_pass')).toBe('offer_day_pass');
    expect(csvCell(-3)).toBe('-3');
    const hostile = businessCsv([metricsRow('2030-01-07T00:00:00.000Z', '=cmd|calc')], '');
    expect(hostile.split('\r\n')[1]).toMatch(/^2030-01-07T00:00:00\.000Z,'=cmd\|calc,prod_of_=cmd\|calc,/);
  });

  it('names the file after the period', () => {
    expect(businessCsvName('metrics', { from: '2030-01-01', to: '2030-03-31', interval: 'week' })).toBe(
      'business-metrics-2030-01-01-2030-03-31-week.csv',
    );
  });
});
