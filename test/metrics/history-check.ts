import type { MetricsReport } from '@dcbkit/core';
import type { EntitlementStore } from '@dcbkit/core/store';
import fc from 'fast-check';
import { TEST_START } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { funnelTruth, kitFunnel } from './funnel-truth.js';
import { type History, historyArbitrary, historySource } from './history-steps.js';
import { lifecycleMismatchOf } from './lifecycle-truth.js';
import { type PlantedWorld, startPlantedWorld } from './planted-world.js';
import { addModelOffers, playHistory } from './play-history.js';
import { sandboxFigures } from './sandbox-figures.js';
import { kitCounts, sandboxTruth, withoutEmpty } from './sandbox-truth.js';
import type { StoreSource } from './stores-under-test.js';

type MetricsInterval = MetricsReport['interval'];

const INTERVALS: readonly MetricsInterval[] = ['day', 'week', 'month'];

/** Where the kit's numbers and the sandbox's records first part. */
export interface Mismatch {
  /** `kit.metrics` (its rows, or its totals), or `kit.checkoutFunnel`. */
  view: string;
  /** Absent where the view names its own (`revenue movements by day`). */
  interval?: MetricsInterval;
  /** `<bucket start>|<offerUid>`, or `totals <from>` for the headline figures of a period. */
  bucket: string;
  /** A row of kit.metrics, its totals, the funnel, or a lifecycle view (cohorts, revenue movements, trial funnel). */
  kit: unknown;
  sandbox: unknown;
}

/**
 * Plays a history on a fresh store through the embedded sandbox, then compares every number of
 * every bucket (by day, week and month) with the sandbox's own records. Resolves to the first
 * bucket that differs, in time order, or undefined when all agree.
 */
export async function mismatchOf(store: EntitlementStore, history: History): Promise<Mismatch | undefined> {
  const world = await startPlantedWorld(store, {
    configure: addModelOffers,
    kit: { linePolicy: history.linePolicy },
  });
  try {
    const routed = await playHistory(world, history);
    const to = new Date(world.sandbox.clock.now().getTime() + 86_400_000);
    for (const interval of INTERVALS) {
      const report = await world.kit.metrics({ from: new Date(TEST_START), to, interval });
      const truth = withoutEmpty(
        await sandboxTruth(world.sandbox, { from: TEST_START, to: report.to, interval }, world.spent),
      );
      const metrics = firstDifference(kitCounts(report), truth);
      if (metrics !== undefined) return { view: 'metrics', interval, ...metrics };
      const funnel = await world.kit.checkoutFunnel({ from: new Date(TEST_START), to, interval });
      const checkouts = firstDifference(
        kitFunnel(funnel.rows),
        await funnelTruth(world.sandbox, { from: TEST_START, to: funnel.to, interval }, routed),
      );
      if (checkouts !== undefined) return { view: 'checkoutFunnel', interval, ...checkouts };
    }
    const lifecycle = await lifecycleMismatchOf(world.kit, world.sandbox, TEST_START, to);
    // Its view names its interval (`revenue movements by day`).
    if (lifecycle) return lifecycle;
    return await totalsMismatch(world, to, routed);
  } finally {
    await world.close();
  }
}

/**
 * Every headline figure of the history's last month (to `to`) beside the month before, against
 * what the sandbox's records (its subscriptions, the payments of the shop's checkouts) give by the
 * same definitions.
 */
async function totalsMismatch(
  world: PlantedWorld,
  to: Date,
  routed: Iterable<string>,
): Promise<Mismatch | undefined> {
  const from = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - 1, to.getUTCDate()));
  const report = await world.kit.metrics({ from, to, interval: 'day' });
  const kit = report.totals;
  // The kit's period is whole days: from the day of `from` to the end of the day before `to`'s end.
  const period = { from: report.from, to: report.to };
  const days = report.rows.length === 0 ? 0 : new Set(report.rows.map((row) => row.start)).size;
  const before = new Date(Date.parse(report.from) - days * 86_400_000);
  const previous = { from: before.toISOString(), to: period.from };
  const sandbox = await sandboxFigures(world.sandbox, period, previous, { routed });
  if (JSON.stringify(kit) === JSON.stringify(sandbox)) return undefined;
  return { view: 'metrics', interval: 'day', bucket: `totals ${period.from}`, kit, sandbox };
}

/** The first bucket, in time order, whose rows differ. */
function firstDifference<Row>(
  kit: Map<string, Row>,
  truth: Map<string, Row>,
): { bucket: string; kit: Row | undefined; sandbox: Row | undefined } | undefined {
  const buckets = [...new Set([...kit.keys(), ...truth.keys()])].sort();
  for (const bucket of buckets) {
    if (JSON.stringify(kit.get(bucket)) !== JSON.stringify(truth.get(bucket))) {
      return { bucket, kit: kit.get(bucket), sandbox: truth.get(bucket) };
    }
  }
  return undefined;
}

export interface HistoryCheck {
  /** Histories that held. */
  held: number;
  /** The first that did not, shrunk to the smallest history that still fails. */
  failure?: { seed: number; history: History; mismatch: string };
}

/**
 * Plays `runs` random histories from `seed` (fast-check's), each on a fresh store of `source`;
 * stops at the first whose numbers differ from the sandbox's and shrinks it (unless `shrink` is
 * false). With `runs: 1`, seed N plays the history the bench calls seed N.
 */
export async function checkHistories(
  source: StoreSource,
  {
    runs,
    seed,
    maxSteps = 60,
    shrink = true,
  }: { runs: number; seed: number; maxSteps?: number; shrink?: boolean },
): Promise<HistoryCheck> {
  const details = await fc.check(
    fc.asyncProperty(historyArbitrary(maxSteps), async (history) => {
      const mismatch = await mismatchOf(await source.fresh(), history);
      if (mismatch !== undefined) throw new Error(describeMismatch(mismatch));
    }),
    // Unbiased: fast-check's bias would make most histories a handful of steps long.
    { numRuns: runs, seed, plugins: [fc.unbiased()], endOnFailure: !shrink },
  );
  if (!details.failed || details.counterexample === null) return { held: details.numRuns };
  const [history] = details.counterexample as [History];
  const mismatch =
    details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return { held: details.numRuns - 1, failure: { seed: details.seed, history, mismatch } };
}

export function describeMismatch({ view, interval, bucket, kit, sandbox }: Mismatch): string {
  const numbers = (row: unknown) => (row === undefined ? 'nothing' : JSON.stringify(row));
  return `kit.${view}${interval ? ` by ${interval}` : ''}, ${bucket}:\n  kit:     ${numbers(kit)}\n  sandbox: ${numbers(sandbox)}`;
}

/** What a failed check prints: the mismatch and the shrunk history as a test to paste. */
export function failureReport(storeName: string, failure: NonNullable<HistoryCheck['failure']>): string {
  return [
    `A random history's numbers differ from the sandbox's records (seed ${failure.seed}, shrunk):`,
    failure.mismatch,
    '',
    'Replay it with this test (test/metrics/replayed-histories.test.ts):',
    '',
    `it('replays seed ${failure.seed} on ${storeName}', async () => {`,
    `  await expectHistoryHolds(${historySource(failure.history).replaceAll('\n', '\n  ')});`,
    '});',
  ].join('\n');
}
