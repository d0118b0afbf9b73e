/**
 * bench/first-run: how long a reader waits, from a fresh clone, for the shop's first page.
 *
 * 1. First run: the README's main command (install, then start) in a fresh clone of this
 *    repository with the working tree's changes copied in, timed to the first HTTP 200 of the
 *    shop's page. Target: within 60 s with a warm package store (this machine's pnpm store, warm
 *    once this repository has been installed here).
 * 2. Second start: Ctrl+C, then the README command's start step again, timed the same way.
 *    Target: within 10 s. `start:koa` after it, with the same target.
 *
 * BENCH_COMMITTED=1 measures the last commit alone, without the working tree's changes (a before
 * figure for a change not yet committed).
 *
 * Each stop is Ctrl+C's SIGINT to the command's whole process group, as a terminal sends it; the
 * bench also says whether the shop said it stopped with no failure printed on the way.
 */
import { fileURLToPath } from 'node:url';
import { timeFirstPage } from './first-page.js';
import { freshClone } from './fresh-clone.js';
import { readmeCommand, startStep } from './readme-command.js';

const FIRST_PAGE_TARGET_MS = 60_000;
const SECOND_START_TARGET_MS = 10_000;
const TIMEOUT_MS = 600_000;

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const command = readmeCommand(repo);
const start = startStep(command);
const startKoa = `${start}:koa`;

const clone = freshClone(repo, { committedOnly: process.env.BENCH_COMMITTED === '1' });
console.log(`first-run: a fresh clone in ${clone.dir} (${clone.changedFiles} changed files copied in)`);
console.log(
  `method: sh -c '<command>' in a process group of its own, PORT=0, timed to the first 200 of the shop's page; Ctrl+C's SIGINT to the group between runs`,
);
try {
  const runs = [
    { name: 'first run', command, targetMs: FIRST_PAGE_TARGET_MS },
    { name: 'second start', command: start, targetMs: SECOND_START_TARGET_MS },
    { name: 'start:koa', command: startKoa, targetMs: SECOND_START_TARGET_MS },
  ];
  for (const run of runs) {
    const timed = await timeFirstPage(run.command, clone.dir, TIMEOUT_MS);
    const pass = timed.firstPageMs <= run.targetMs;
    console.log(
      [
        run.name.padEnd(13),
        `${(timed.firstPageMs / 1000).toFixed(1)} s`.padStart(8),
        `target <= ${run.targetMs / 1000} s`.padEnd(16),
        pass ? 'PASS' : 'MISS',
        `  Ctrl+C: ${timed.cleanStop ? 'clean' : 'NOT CLEAN'}`,
        `  (${run.command})`,
      ].join('  '),
    );
    if (!timed.cleanStop) console.log(`  its output:\n${timed.output.replace(/^/gm, '    ')}`);
  }
} finally {
  clone.remove();
}
