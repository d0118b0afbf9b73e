import { runLedgerConformance } from '@dcbkit/core/store';
import { describe, expect, it } from 'vitest';
import type { EventLedger } from './event-ledger.js';
import { DELIVERY_WINDOW_MS, memoryLedger } from './memory-ledger.js';

runLedgerConformance(() => memoryLedger(), { name: 'memoryLedger', describe, it });
runLedgerConformance(() => memoryLedger({ leaseMs: 200 }), {
  name: 'memoryLedger, short lease',
  describe,
  it,
  leaseMs: 200,
});

/** Claims and completes a key, as the handler does for an event it processed. */
async function completeNow(ledger: EventLedger, key: string): Promise<void> {
  const claim = await ledger.claim(key);
  if (claim.status !== 'new') throw new Error(`${key} was ${claim.status}`);
  await ledger.complete(key, claim.token);
}

function fakeClock() {
  // Not from 0: the ledger must count from its own creation, whatever the clock's origin.
  let ms = 1_000;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

describe('memoryLedger', () => {
  it('lets an in-progress claim lapse after its lease, so a crashed attempt does not block the retry', async () => {
    const clock = fakeClock();
    const ledger = memoryLedger({ leaseMs: 30_000, now: clock.now });
    expect((await ledger.claim('event-a')).status).toBe('new');
    clock.advance(29_000);
    expect((await ledger.claim('event-a')).status).toBe('in_progress');
    clock.advance(2_000);
    expect((await ledger.claim('event-a')).status).toBe('new');
  });

  it('remembers a completed event through the 48-hour delivery window and forgets it after its TTL', async () => {
    const clock = fakeClock();
    const ttlMs = DELIVERY_WINDOW_MS + 3_600_000;
    const ledger = memoryLedger({ ttlMs, leaseMs: 30_000, now: clock.now });
    await completeNow(ledger, 'event-a');
    clock.advance(DELIVERY_WINDOW_MS);
    expect((await ledger.claim('event-a')).status).toBe('duplicate');
    clock.advance(3_600_000 + 1);
    expect((await ledger.claim('event-a')).status).toBe('new');
  });

  it('stays bounded: beyond max, the oldest events are forgotten first', async () => {
    const ledger = memoryLedger({ max: 3 });
    for (const key of ['a', 'b', 'c']) await completeNow(ledger, key);
    expect((await ledger.claim('a')).status).toBe('duplicate');
    await ledger.claim('d');
    expect((await ledger.claim('b')).status).toBe('duplicate');
    expect((await ledger.claim('c')).status).toBe('duplicate');
    expect((await ledger.claim('a')).status).toBe('new');
  });

  it('remembers exactly the last max events through many evictions and growths', async () => {
    const ledger = memoryLedger({ max: 1_000 });
    for (let i = 0; i < 5_000; i++) await completeNow(ledger, `e${i}`);
    for (const i of [4_000, 4_001, 4_500, 4_999])
      expect((await ledger.claim(`e${i}`)).status).toBe('duplicate');
    for (const i of [0, 3_000, 3_999]) expect((await ledger.claim(`e${i}`)).status).toBe('new');
  });

  it('completes a claim it had to forget (more claims than max in flight), so the event stays done', async () => {
    const ledger = memoryLedger({ max: 2 });
    const first = await ledger.claim('a');
    if (first.status !== 'new') throw new Error('a fresh key was not new');
    await ledger.claim('b');
    await ledger.claim('c');
    await ledger.complete('a', first.token);
    expect((await ledger.claim('a')).status).toBe('duplicate');
  });

  it('moves a lapsed claim taken over to the newest place, so the new holder is not the next forgotten', async () => {
    const clock = fakeClock();
    const ledger = memoryLedger({ max: 3, leaseMs: 1_000, now: clock.now });
    await ledger.claim('a'); // never completed: lapses
    await completeNow(ledger, 'b');
    clock.advance(2_000);
    const retry = await ledger.claim('a');
    if (retry.status !== 'new') throw new Error('the lapsed claim was not taken over');
    await completeNow(ledger, 'c');
    await completeNow(ledger, 'd'); // full: the oldest place goes, which is no longer a's
    expect((await ledger.claim('a')).status).toBe('in_progress');
    await ledger.complete('a', retry.token);
    expect((await ledger.claim('a')).status).toBe('duplicate');
  });

  it('refuses options that would forget events inside the delivery window, or never let a claim lapse', () => {
    expect(() => memoryLedger({ ttlMs: DELIVERY_WINDOW_MS })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(() => memoryLedger({ ttlMs: 60_000 })).toThrow(/48-hour/);
    expect(() => memoryLedger({ max: 0 })).toThrow(expect.objectContaining({ code: 'invalid_option' }));
    expect(() => memoryLedger({ leaseMs: 0 })).toThrow(expect.objectContaining({ code: 'invalid_option' }));
    expect(() => memoryLedger({ leaseMs: Number.POSITIVE_INFINITY })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });
});
