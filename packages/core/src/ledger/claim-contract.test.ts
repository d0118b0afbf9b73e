import { describe, expect, it } from 'vitest';
import { checkedClaim } from './claim-contract.js';
import { memoryLedger } from './memory-ledger.js';

describe('checkedClaim', () => {
  it('passes every claim of the contract through as it came', async () => {
    for (const claim of [
      { status: 'new', token: 0 },
      { status: 'new', token: 'row-17' },
      { status: 'duplicate' },
      { status: 'in_progress' },
    ]) {
      expect(checkedClaim(claim, 'key')).toBe(claim);
    }
    const ledger = memoryLedger();
    const claim = await ledger.claim('evt');
    expect(checkedClaim(claim, 'evt')).toBe(claim);
  });

  it('refuses anything else with ledger_contract_violated, saying what it got', () => {
    for (const [answered, shown] of [
      ['new', "'new'"],
      [{ status: 'new' }, '{"status":"new"}'],
      [{ status: 'new', token: null }, '{"status":"new","token":null}'],
      [{ status: 'taken' }, '{"status":"taken"}'],
      [undefined, 'undefined'],
      [true, 'true'],
    ] as const) {
      expect(() => checkedClaim(answered, 'evt_key')).toThrowError(
        expect.objectContaining({
          code: 'ledger_contract_violated',
          details: { key: 'evt_key', answered: shown },
          message: expect.stringContaining(`claim() answered ${shown}, but its contract is`),
        }),
      );
    }
  });
});
