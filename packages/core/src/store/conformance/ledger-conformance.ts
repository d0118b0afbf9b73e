import assert from 'node:assert/strict';
import type { ClaimToken, EventLedger } from '../../ledger/event-ledger.js';
import { uniqueId } from './example-entitlement.js';
import { type ConformanceCheck, type ConformanceOptions, runChecks } from './test-runner.js';

const CONCURRENT_CLAIMS = 20;

/** Claims a key the check expects to be new, and hands back its token. */
async function claimNew(ledger: EventLedger, key: string): Promise<ClaimToken> {
  const claim = await ledger.claim(key);
  assert.equal(claim.status, 'new', `a claim of ${key} should be new`);
  return (claim as { token: ClaimToken }).token;
}

const statusOf = async (ledger: EventLedger, key: string) => (await ledger.claim(key)).status;

/** What every EventLedger must do; runLedgerConformance runs each as a test. */
export const ledgerChecks: readonly ConformanceCheck<EventLedger>[] = [
  {
    name: 'a first claim is new; a second, before completion, is in progress',
    async run(ledger) {
      const key = uniqueId('event');
      await claimNew(ledger, key);
      assert.equal(await statusOf(ledger, key), 'in_progress');
    },
  },
  {
    name: 'after complete, every claim is a duplicate',
    async run(ledger) {
      const key = uniqueId('event');
      await ledger.complete(key, await claimNew(ledger, key));
      assert.equal(await statusOf(ledger, key), 'duplicate');
      assert.equal(await statusOf(ledger, key), 'duplicate');
    },
  },
  {
    name: 'after release, the next claim is new (the retry is processed)',
    async run(ledger) {
      const key = uniqueId('event');
      await ledger.release(key, await claimNew(ledger, key));
      await claimNew(ledger, key);
    },
  },
  {
    name: 'release after complete keeps the completion',
    async run(ledger) {
      const key = uniqueId('event');
      const token = await claimNew(ledger, key);
      await ledger.complete(key, token);
      await ledger.release(key, token);
      assert.equal(await statusOf(ledger, key), 'duplicate');
    },
  },
  {
    name: "a release with another claim's token frees nothing",
    async run(ledger) {
      const key = uniqueId('event');
      const token = await claimNew(ledger, key);
      const other = uniqueId('event');
      await ledger.release(key, await claimNew(ledger, other));
      assert.equal(await statusOf(ledger, key), 'in_progress', 'the holder still holds it');
      await ledger.release(key, token);
      await claimNew(ledger, key);
    },
  },
  {
    name: `of ${CONCURRENT_CLAIMS} concurrent claims of one key, exactly one is new`,
    async run(ledger) {
      const key = uniqueId('event');
      const claims = await Promise.all(Array.from({ length: CONCURRENT_CLAIMS }, () => ledger.claim(key)));
      const statuses = claims.map((claim) => claim.status);
      assert.equal(statuses.filter((status) => status === 'new').length, 1, `claims: ${statuses.join(', ')}`);
      assert.equal(statuses.filter((status) => status === 'in_progress').length, CONCURRENT_CLAIMS - 1);
    },
  },
  {
    name: 'keys are independent, long and unicode ones included',
    async run(ledger) {
      const base = uniqueId('event');
      const keys = [base, `${base}-other`, `${base}${'x'.repeat(2000)}`, `${base}-événement-حدث`];
      const tokens = [];
      for (const key of keys) tokens.push(await claimNew(ledger, key));
      await ledger.complete(keys[0] ?? '', tokens[0] ?? '');
      for (const key of keys.slice(1)) assert.equal(await statusOf(ledger, key), 'in_progress');
    },
  },
];

/** With a lease the suite can wait out: a claim lapses, and a late release frees nothing retaken. */
export function ledgerLeaseChecks(leaseMs: number): ConformanceCheck<EventLedger>[] {
  const lapse = () => new Promise((resolve) => setTimeout(resolve, leaseMs * 1.5 + 50));
  return [
    {
      name: `a claim left in progress lapses after its lease (${leaseMs} ms): the retry is new`,
      async run(ledger) {
        const key = uniqueId('event');
        await claimNew(ledger, key);
        await lapse();
        await claimNew(ledger, key);
      },
    },
    {
      name: "the first holder's late release does not free the claim another delivery took over",
      async run(ledger) {
        const key = uniqueId('event');
        const first = await claimNew(ledger, key);
        await lapse();
        const second = await claimNew(ledger, key);
        await ledger.release(key, first);
        assert.equal(await statusOf(ledger, key), 'in_progress', 'the second holder still holds it');
        await ledger.complete(key, second);
        assert.equal(await statusOf(ledger, key), 'duplicate');
      },
    },
  ];
}

export interface LedgerConformanceOptions extends ConformanceOptions<EventLedger> {
  /**
   * The lease `factory`'s ledgers are made with, when it is short enough to wait out (a few hundred
   * ms): the suite then checks that a claim lapses and that a late release frees no retaken claim.
   */
  leaseMs?: number;
}

/**
 * The conformance suite every EventLedger must pass, registered with your runner's `describe` and
 * `it` (the globals when the runner installs them). Give `leaseMs` (and make the factory's ledgers
 * with that lease) to check leases too.
 *
 * @example
 * import { describe, it } from 'node:test'; // or 'vitest'
 * runLedgerConformance(() => myLedger(pool, { leaseMs: 300 }), { name: 'myLedger', describe, it, leaseMs: 300 });
 */
export function runLedgerConformance(
  factory: () => EventLedger | Promise<EventLedger>,
  options: LedgerConformanceOptions = {},
): void {
  const checks =
    options.leaseMs === undefined ? ledgerChecks : [...ledgerChecks, ...ledgerLeaseChecks(options.leaseMs)];
  runChecks('runLedgerConformance', 'EventLedger conformance', checks, factory, options);
}
