import type { MetricsReport } from '@dcbkit/core';
import type { EntitlementStore } from '@dcbkit/core/store';
import fc from 'fast-check';
import { TEST_START } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { type History, historyArbitrary, historySource } from './history-steps.js';
import { lifecycleMismatchOf } from './lifecycle-truth.js';
import { startPlantedWorld } from './planted-world.js';
import { addWeeklyOffer, playHistory } from './play-history.js';
import { type Counted, kitCounts, sandboxTruth, withoutEmpty } from './sandbox-truth.js';
import type { StoreSource } from './stores-under-test.js';

type MetricsInterval = MetricsReport['interval'];

const INTERVALS: readonly MetricsInterval[] = ['day', 'week', 'month'];

/** Where the kit's numbers and the sandbox's records first part. */
export interface Mismatch {
  interval: MetricsInterval;
  /** `<bucket start>|<offerUid>` */
  bucket: string;
  /** A row of kit.metrics, or of a lifecycle view (cohorts, revenue movements, trial funnel: `interval` names it). */
  kit: Counted | unknown;
  sandbox: Counted | unknown;
}

/**
 * Plays a history on a fresh store through the embedded sandbox, then compares every number of
 * every bucket (by day, week and month) with the sandbox's own records. Resolves to the first
 * bucket that differs, in time order, or undefined when all agree.
 */
export async function mismatchOf(store: EntitlementStore, history: History): Promise<Mismatch | undefined> {
  const world = await startPlantedWorld(store, {
    configure: addWeeklyOffer,
    kit: { linePolicy: history.linePolicy },
  });
  try {
    await playHistory(world, history);
    const to = new Date(world.sandbox.clock.now().getTime() + 86_400_000);
    for (const interval of INTERVALS) {
      const report = await world.kit.metrics({ from: new Date(TEST_START), to, interval });
      const kit = kitCounts(report);
      const truth = withoutEmpty(
        await sandboxTruth(world.sandbox, { from: TEST_START, to: report.to, interval }, world.spent),
      );
      const buckets = [...new Set([...kit.keys(), ...truth.keys()])].sort();
      for (const bucket of buckets) {
        if (JSON.stringify(kit.get(bucket)) !== JSON.stringify(truth.get(bucket))) {
          return { interval, bucket, kit: kit.get(bucket), sandbox: truth.get(bucket) };
        }
      }
    }
    const lifecycle = await lifecycleMismatchOf(world.kit, world.sandbox, TEST_START, to);
    if (lifecycle) return { interval: lifecycle.view as MetricsInterval, ...lifecycle };
    return undefined;
  } finally {
    await world.close();
  }
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

export function describeMismatch({ interval, bucket, kit, sandbox }: Mismatch): string {
  const numbers = (row: unknown) => (row === undefined ? 'nothing' : JSON.stringify(row));
  return `by ${interval}, ${bucket}:\n  kit:     ${numbers(kit)}\n  sandbox: ${numbers(sandbox)}`;
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
