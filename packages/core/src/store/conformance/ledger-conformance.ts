import assert from 'node:assert/strict';
import type { EventLedger } from '../../ledger/event-ledger.js';
import { uniqueId } from './example-entitlement.js';
import { type ConformanceCheck, type ConformanceOptions, runChecks } from './test-runner.js';

const CONCURRENT_CLAIMS = 20;

/** What every EventLedger must do; runLedgerConformance runs each as a test. */
export const ledgerChecks: readonly ConformanceCheck<EventLedger>[] = [
  {
    name: 'a first claim is new; a second, before completion, is in progress',
    async run(ledger) {
      const key = uniqueId('event');
      assert.equal(await ledger.claim(key), 'new');
      assert.equal(await ledger.claim(key), 'in_progress');
    },
  },
  {
    name: 'after complete, every claim is a duplicate',
    async run(ledger) {
      const key = uniqueId('event');
      await ledger.claim(key);
      await ledger.complete(key);
      assert.equal(await ledger.claim(key), 'duplicate');
      assert.equal(await ledger.claim(key), 'duplicate');
    },
  },
  {
    name: 'after release, the next claim is new (the retry is processed)',
    async run(ledger) {
      const key = uniqueId('event');
      await ledger.claim(key);
      await ledger.release(key);
      assert.equal(await ledger.claim(key), 'new');
    },
  },
  {
    name: 'release after complete keeps the completion',
    async run(ledger) {
      const key = uniqueId('event');
      await ledger.claim(key);
      await ledger.complete(key);
      await ledger.release(key);
      assert.equal(await ledger.claim(key), 'duplicate');
    },
  },
  {
    name: `of ${CONCURRENT_CLAIMS} concurrent claims of one key, exactly one is new`,
    async run(ledger) {
      const key = uniqueId('event');
      const results = await Promise.all(Array.from({ length: CONCURRENT_CLAIMS }, () => ledger.claim(key)));
      assert.equal(results.filter((result) => result === 'new').length, 1, `claims: ${results.join(', ')}`);
      assert.equal(results.filter((result) => result === 'in_progress').length, CONCURRENT_CLAIMS - 1);
    },
  },
  {
    name: 'keys are independent, long and unicode ones included',
    async run(ledger) {
      const base = uniqueId('event');
      const keys = [base, `${base}-other`, `${base}${'x'.repeat(2000)}`, `${base}-événement-حدث`];
      for (const key of keys) assert.equal(await ledger.claim(key), 'new');
      await ledger.complete(keys[0] ?? '');
      for (const key of keys.slice(1)) assert.equal(await ledger.claim(key), 'in_progress');
    },
  },
];

/**
 * The conformance suite every EventLedger must pass, registered with your runner's `describe` and
 * `it` (the globals when the runner installs them). Lease expiry depends on the ledger's clock, so
 * test it in your own suite.
 *
 * @example
 * import { describe, it } from 'node:test'; // or 'vitest'
 * runLedgerConformance(() => myLedger(pool), { name: 'myLedger', describe, it });
 */
export function runLedgerConformance(
  factory: () => EventLedger | Promise<EventLedger>,
  options: ConformanceOptions<EventLedger> = {},
): void {
  runChecks('runLedgerConformance', 'EventLedger conformance', ledgerChecks, factory, options);
}
