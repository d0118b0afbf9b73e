/**
 * The business view's proof at scale: 1,000 random histories (by default) through the embedded
 * sandbox, each compared bucket by bucket (day, week, month) with the sandbox's own records, as
 * `test/metrics/random-histories.test.ts` does for a few dozen in `pnpm test`. Prints how many held
 * per store, and for each that did not, the command that replays and shrinks it.
 *
 *   pnpm --filter @dcbkit-bench/histories bench -- [--runs 1000] [--seed 1] [--store memory|pglite|postgres|all]
 *
 * It runs on the packages' sources (the root tsconfig's paths), like the tests: what it proves is
 * the code under test, not a build. PostgreSQL needs DATABASE_URL.
 */
import { parseArgs } from 'node:util';
import { checkHistories } from '../../../test/metrics/history-check.js';
import { STORES_UNDER_TEST } from '../../../test/metrics/stores-under-test.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    store: { type: 'string', default: 'memory' },
  },
});
const runs = Number(values.runs);
const firstSeed = Number(values.seed);
const wanted = values.store === 'all' ? ['memory', 'pglite', 'postgres'] : [values.store];
const stores = STORES_UNDER_TEST.filter((store) => wanted.some((name) => store.name === `${name}Store`));
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(firstSeed) || stores.length === 0) {
  console.error('usage: run.ts [--runs N] [--seed S] [--store memory|pglite|postgres|all]');
  process.exit(2);
}

// The sandbox and the kit log nothing a count needs.
process.env.NODE_ENV ??= 'test';
let failedAny = false;
for (const target of stores) {
  if (target.skip) {
    console.log(`${target.name}: skipped (DATABASE_URL is not set)`);
    continue;
  }
  const source = await target.open();
  const started = performance.now();
  const failed: number[] = [];
  try {
    for (let seed = firstSeed; seed < firstSeed + runs; seed++) {
      const result = await checkHistories(source, { runs: 1, seed, shrink: false });
      if (result.failure) failed.push(seed);
      const done = seed - firstSeed + 1;
      if (done % 100 === 0 || done === runs) {
        const seconds = ((performance.now() - started) / 1000).toFixed(0);
        console.log(`${target.name}: ${done - failed.length} of ${done} held (${seconds} s)`);
      }
    }
  } finally {
    await source.close();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${target.name}: ${runs - failed.length} of ${runs} histories held (seeds ${firstSeed}–${firstSeed + runs - 1}), ${seconds.toFixed(0)} s, ${((seconds / runs) * 1000).toFixed(0)} ms a history`,
  );
  for (const seed of failed) {
    failedAny = true;
    console.log(
      `  seed ${seed} failed: HISTORY_SEED=${seed} HISTORY_RUNS=1 npx vitest run test/metrics/random-histories.test.ts -t ${target.name} shrinks it and prints it as a test`,
    );
  }
}
process.exitCode = failedAny ? 1 : 0;
