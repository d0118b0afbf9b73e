import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writePlot } from '../../bench/soak/src/plot.js';
import { reportOf, summaryLine } from '../../bench/soak/src/report.js';
import { runSoak } from '../../bench/soak/src/soak.js';

// The soak harness (bench/soak) for half a minute, so that CI proves it works: the standalone
// sandbox with chaos delivery, two shop instances in production configuration on PostgreSQL behind
// the round-robin proxy, 40 subscribers, shop 0 killed and restarted twice, a PostgreSQL backend
// terminated twice, a 5-s webhook outage and its dead letters replayed. The faults and the samples
// come closer together than in a longer run, so that each still happens in the half minute; the
// hour stays in bench/soak. The soak makes a database of its
// own on DATABASE_URL's server and drops it after, so it never touches the tests' database.
const DATABASE_URL = process.env.DATABASE_URL;

describe.skipIf(!DATABASE_URL)('the soak harness, for half a minute', () => {
  const work = mkdtempSync(join(tmpdir(), 'dcbkit-soak-test-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('ends with nothing charged twice, no grant lost, no access wrongly kept, units counted, every 5xx explained, and a full report', async () => {
    const result = await runSoak({
      minutes: 0.5,
      plan: { killEveryMs: 10_000, pgTerminateEveryMs: 12_000 },
      sampleEveryMs: 5_000,
      seed: 40,
      subscribers: 40,
      instances: 2,
      thinkMs: [1_000, 4_000],
      databaseUrl: DATABASE_URL ?? '',
      log: () => {},
    });
    const report = reportOf(result);
    const reportPath = join(work, 'report.json');
    writeFileSync(reportPath, JSON.stringify(report));
    await writePlot(result.samples, result.faults, join(work, 'plot.svg'));
    const explain = `${summaryLine(report)}\n${JSON.stringify(
      { findings: report.findings, unexplained: report.serverErrors.unexplainedSamples },
      null,
      2,
    )}`;

    expect(result.restartsAt.length, explain).toBeGreaterThanOrEqual(1);
    expect(
      result.faults.some((fault) => fault.kind === 'outage'),
      explain,
    ).toBe(true);
    expect(report.purchases, explain).toBeGreaterThan(20);
    expect(
      {
        doubleCharges: report.doubleCharges,
        lostGrants: report.lostGrants,
        wrongAccess: report.wrongAccess,
        miscountedUnits: report.miscountedUnits,
        unexplained5xx: report.serverErrors.unexplained,
        undeliveredEvents: report.undeliveredEvents,
      },
      explain,
    ).toEqual({
      doubleCharges: 0,
      lostGrants: 0,
      wrongAccess: 0,
      miscountedUnits: 0,
      unexplained5xx: 0,
      undeliveredEvents: 0,
    });
    const written = JSON.parse(readFileSync(reportPath, 'utf8'));
    for (const field of ['purchases', 'doubleCharges', 'lostGrants', 'wrongAccess', 'miscountedUnits']) {
      expect(typeof written[field], field).toBe('number');
    }
    expect(Object.keys(written.rssSlopeBytesPerMinute)).toEqual(['instance0', 'instance1']);
    expect(written.samples.length).toBeGreaterThanOrEqual(5);
    expect(readFileSync(join(work, 'plot.svg'), 'utf8')).toContain('<svg');
  }, 240_000);
});
