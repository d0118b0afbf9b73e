import assert from 'node:assert/strict';
import { DcbError } from '../../errors/dcb-error.js';

/** A test runner's `describe`: vitest's, jest's, mocha's or node:test's all fit. */
export type DescribeFunction = (name: string, body: () => void) => unknown;
/** A test runner's `it` (or `test`): vitest's, jest's, mocha's or node:test's all fit. */
export type ItFunction = (name: string, body: () => Promise<void>) => unknown;

/** The two functions the conformance suites register their checks with. */
export interface TestRunner {
  describe: DescribeFunction;
  it: ItFunction;
}

/**
 * The runner's functions: the ones passed, else the globals a runner installs (vitest with
 * `globals: true`, jest, mocha). Without either, a DcbError `invalid_option` saying what to pass.
 */
export function testRunnerOf(where: string, options: Partial<TestRunner>): TestRunner {
  const globals = globalThis as { describe?: unknown; it?: unknown };
  const describe = options.describe ?? globals.describe;
  const it = options.it ?? globals.it;
  if (typeof describe === 'function' && typeof it === 'function') {
    return { describe: describe as DescribeFunction, it: it as ItFunction };
  }
  throw new DcbError(
    'invalid_option',
    `${where}: pass { describe, it } from your test runner, e.g. import { describe, it } from 'node:test' ` +
      `(or from 'vitest'); no global describe and it were found.`,
    { details: { option: typeof describe === 'function' ? 'it' : 'describe' } },
  );
}

/** Deep equality of two records as JSON, the way a store round-trips them (toEqual's sense). */
export function same(actual: unknown, expected: unknown, what: string): void {
  assert.notEqual(actual, undefined, `${what}: expected a record, got undefined`);
  assert.deepStrictEqual(JSON.parse(JSON.stringify(actual)), JSON.parse(JSON.stringify(expected)), what);
}

export interface ConformanceCheck<Subject> {
  name: string;
  run: (subject: Subject) => Promise<void>;
}

export interface ConformanceOptions<Subject> extends Partial<TestRunner> {
  /** Shown in the suite's title, e.g. 'postgresStore'. */
  name?: string;
  /** Runs after each check, e.g. to close a pool. */
  teardown?: (subject: Subject) => unknown;
}

/** Registers one test per check, each on a fresh subject from `factory`, torn down after it. */
export function runChecks<Subject>(
  where: string,
  title: string,
  checks: readonly ConformanceCheck<Subject>[],
  factory: () => Subject | Promise<Subject>,
  options: ConformanceOptions<Subject>,
): void {
  const { describe, it } = testRunnerOf(where, options);
  describe(`${title}${options.name ? `: ${options.name}` : ''}`, () => {
    for (const check of checks) {
      it(check.name, async () => {
        const subject = await factory();
        try {
          await check.run(subject);
        } finally {
          await options.teardown?.(subject);
        }
      });
    }
  });
}
