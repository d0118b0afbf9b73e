import { describe, expect, it } from 'vitest';
import type { EventLedger } from '../entitlements/ledger/event-ledger.js';
import { uniqueId } from './example-entitlement.js';
import type { ConformanceCheck, ConformanceOptions } from './store-conformance.js';

const CONCURRENT_CLAIMS = 20;

/** What every EventLedger must do; runLedgerConformance runs each as a test. */
export const ledgerChecks: readonly ConformanceCheck<EventLedger>[] = [
  {
    name: 'a first claim is new; a second, before completion, is in progress',
    async run(ledger) {
      const key = uniqueId('event');
      expect(await ledger.claim(key)).toBe('new');
      expect(await ledger.claim(key)).toBe('in_progress');
    },
  },
  {
    name: 'after complete, every claim is a duplicate',
    async run(ledger) {
      const key = uniqueId('event');
      await ledger.claim(key);
      await ledger.complete(key);
      expect(await ledger.claim(key)).toBe('duplicate');
      expect(await ledger.claim(key)).toBe('duplicate');
    },
  },
  {
    name: 'after release, the next claim is new (the retry is processed)',
    async run(ledger) {
      const key = uniqueId('event');
      await ledger.claim(key);
      await ledger.release(key);
      expect(await ledger.claim(key)).toBe('new');
    },
  },
  {
    name: 'release after complete keeps the completion',
    async run(ledger) {
      const key = uniqueId('event');
      await ledger.claim(key);
      await ledger.complete(key);
      await ledger.release(key);
      expect(await ledger.claim(key)).toBe('duplicate');
    },
  },
  {
    name: `of ${CONCURRENT_CLAIMS} concurrent claims of one key, exactly one is new`,
    async run(ledger) {
      const key = uniqueId('event');
      const results = await Promise.all(Array.from({ length: CONCURRENT_CLAIMS }, () => ledger.claim(key)));
      expect(results.filter((result) => result === 'new')).toHaveLength(1);
      expect(results.filter((result) => result === 'in_progress')).toHaveLength(CONCURRENT_CLAIMS - 1);
    },
  },
  {
    name: 'keys are independent, long and unicode ones included',
    async run(ledger) {
      const base = uniqueId('event');
      const keys = [base, `${base}-other`, `${base}${'x'.repeat(2000)}`, `${base}-événement-حدث`];
      for (const key of keys) expect(await ledger.claim(key)).toBe('new');
      await ledger.complete(keys[0] ?? '');
      for (const key of keys.slice(1)) expect(await ledger.claim(key)).toBe('in_progress');
    },
  },
];

/**
 * The conformance suite every EventLedger must pass. Lease expiry depends on the ledger's clock,
 * so test it in your own suite.
 *
 * @example
 * runLedgerConformance(() => myLedger(pool), { name: 'myLedger' });
 */
export function runLedgerConformance(
  factory: () => EventLedger | Promise<EventLedger>,
  options: ConformanceOptions<EventLedger> = {},
): void {
  describe(`EventLedger conformance${options.name ? `: ${options.name}` : ''}`, () => {
    for (const check of ledgerChecks) {
      it(check.name, async () => {
        const ledger = await factory();
        try {
          await check.run(ledger);
        } finally {
          await options.teardown?.(ledger);
        }
      });
    }
  });
}
