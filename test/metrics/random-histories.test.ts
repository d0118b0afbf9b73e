/**
 * Issue 49: the business view proven the way a partner lives. Seeded random histories through the
 * embedded sandbox on its clock (every kind of offer, trials, cancels now and at period end through
 * the routes and at the service, resumes, renewals forced to fail, lines paying twice, passes,
 * unlocks, refused and expired checkouts, chaos delivery, an outage repaired by reconciliation and
 * replay), each number of each bucket by day, week and month compared with the sandbox's own
 * records, on every built-in store. A failing history is shrunk and printed as a ready test.
 * `HISTORY_RUNS` and `HISTORY_SEED` change how many and which;
 * `npx -y pnpm@10 --filter @dcbkit-bench/histories bench` runs 1,000 on each store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHistories, failureReport } from './history-check.js';
import { STORES_UNDER_TEST, type StoreSource } from './stores-under-test.js';

/** Histories per store in `pnpm test`: the memory store runs most, the SQL stores prove the same numbers. */
const RUNS = { memoryStore: 10, pgliteStore: 4, postgresStore: 4 } as const;
const runsOverride = Number(process.env.HISTORY_RUNS ?? '') || undefined;
const seed = Number(process.env.HISTORY_SEED ?? '') || 49;

describe.each(STORES_UNDER_TEST)('random histories: $name', (target) => {
  let source: StoreSource;
  beforeAll(async () => {
    if (!target.skip) source = await target.open();
  });
  afterAll(() => source?.close());

  it.skipIf(target.skip === true)(
    'count every number of every bucket as the sandbox recorded it',
    async () => {
      const runs = runsOverride ?? RUNS[target.name];
      const result = await checkHistories(source, { runs, seed });
      if (result.failure) expect.fail(failureReport(target.name, result.failure));
      expect(result.held).toBe(runs);
    },
    600_000,
  );
});
