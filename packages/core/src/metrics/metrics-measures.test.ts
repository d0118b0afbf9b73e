import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { offers } from '../test-support/fixtures.js';
import { CHECKOUT_KINDS, METRIC_KINDS } from './metric-entry.js';
import { METRICS_MEASURES } from './metrics-measures.js';
import { metricsReport } from './metrics-report.js';

const QUERY = {
  from: new Date('2030-06-01T00:00:00Z'),
  to: new Date('2030-06-02T00:00:00Z'),
  interval: 'day' as const,
};
const [OFFER] = offers.list;

/** The one row of a day on which 7 facts of `kind` (or 7 live changes) were told, and nothing else. */
function rowWith(fields: {
  kind: (typeof METRIC_KINDS)[number];
  count: number;
  amount: number;
  live: number;
}) {
  if (!OFFER) throw new Error('the fixtures have an offer');
  const day = { day: '2030-06-01', offerUid: OFFER.offerUid, productUid: OFFER.productUid, currency: 'TND' };
  const report = metricsReport(QUERY, { days: [{ ...day, ...fields }], liveBefore: [] }, [OFFER]);
  return report.rows[0];
}

describe('METRICS_MEASURES: every number of a kit.metrics row, declared once', () => {
  it('counts every kind of fact but the checkout funnel’s exactly once, and names each column once', () => {
    const counted = METRICS_MEASURES.map(({ counts }) => counts).filter((c) => c !== 'live' && c !== 'money');
    expect([...counted].sort()).toEqual(
      METRIC_KINDS.filter((kind) => !CHECKOUT_KINDS.includes(kind as never)).sort(),
    );
    const columns = METRICS_MEASURES.map(({ column }) => column);
    expect(new Set(columns).size).toBe(columns.length);
  });

  it('reads, for each measure, the number the report filled from its own facts and no other', () => {
    for (const measure of METRICS_MEASURES) {
      const kind =
        measure.counts === 'live' || measure.counts === 'money' ? 'new_subscription' : measure.counts;
      const row = rowWith({
        kind,
        count: measure.counts === 'live' || measure.counts === 'money' ? 0 : 7,
        amount: measure.counts === 'money' ? 7 : 0,
        live: measure.counts === 'live' ? 7 : 0,
      });
      if (!row) throw new Error('a row per bucket and offer');
      for (const other of METRICS_MEASURES)
        expect(other.of(row), `${measure.column}: ${other.column}`).toBe(other === measure ? 7 : 0);
    }
  });

  it('is what docs/operations.md’s table of the numbers says, row by row and in its order', () => {
    const docs = readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
    const table = docs.slice(
      docs.indexOf('| number | what it counts |'),
      docs.indexOf('### Headline figures'),
    );
    const rows = [...table.matchAll(/^\| `([^`]+)` \| ([^|]+) \|/gm)].map(([, field, means]) => [
      field,
      means?.trim(),
    ]);
    expect(rows).toEqual(METRICS_MEASURES.map(({ field, means }) => [field, means]));
  });
});
