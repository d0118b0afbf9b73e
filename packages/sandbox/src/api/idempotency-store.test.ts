import { describe, expect, it } from 'vitest';
import { createClock } from '../clock/clock.js';
import type { Reply } from '../http/reply.js';
import { IDEMPOTENCY_WINDOW_SECONDS, IdempotencyStore } from './idempotency-store.js';

const CLIENT = 'client_1';
const BODY = { offerUid: 'offer_day_pass' };

function setup(maxKeys?: number) {
  const clock = createClock({ start: '2030-01-01T00:00:00Z', frozen: true });
  const store = new IdempotencyStore(clock, maxKeys);
  /** Claims and completes `key`, as a create that succeeded does. */
  const create = (key: string): Reply => {
    const reply = { status: 201, body: key };
    expect(store.claim(CLIENT, key, BODY)).toEqual({ kind: 'new' });
    store.complete(CLIENT, key, reply);
    return reply;
  };
  const claim = (key: string) => store.claim(CLIENT, key, BODY).kind;
  return { clock, store, create, claim };
}

describe('IdempotencyStore', () => {
  it('replays a key until its 24 hours have passed, then forgets it', async () => {
    const { clock, store, create, claim } = setup();
    const reply = create('key_a');
    await clock.advance(IDEMPOTENCY_WINDOW_SECONDS - 1);
    expect(store.claim(CLIENT, 'key_a', BODY)).toEqual({ kind: 'replay', reply });
    await clock.advance(1);
    expect(claim('key_a')).toBe('new');
  });

  it('forgets keys one by one as each window closes, over days of steady creates', async () => {
    const { clock, store, create, claim } = setup();
    // One key an hour for three days: an hour after each create, the key made 23 hours before it
    // replays and the one made 24 hours before is gone.
    for (let hour = 0; hour < 72; hour++) {
      create(`key_${hour}`);
      await clock.advance(3600);
      if (hour >= 23) {
        expect(claim(`key_${hour - 23}`)).toBe('new');
        store.release(CLIENT, `key_${hour - 23}`);
      }
      if (hour >= 22) expect(claim(`key_${hour - 22}`)).toBe('replay');
    }
  });

  it('keeps a claim that outlives its window until it completes, then forgets it', async () => {
    const { clock, store, create, claim } = setup();
    expect(claim('slow')).toBe('new');
    create('quick');
    await clock.advance(IDEMPOTENCY_WINDOW_SECONDS);
    expect(claim('quick')).toBe('new');
    // Still running: a second request with its key is told so (PAY-104), not let through.
    expect(() => claim('slow')).toThrow(expect.objectContaining({ code: 'PAY-104' }));
    store.complete(CLIENT, 'slow', { status: 201 });
    expect(claim('slow')).toBe('new');
  });

  it('does not forget a key claimed again after a release by the first claim’s window', async () => {
    const { clock, store, create, claim } = setup();
    expect(claim('retried')).toBe('new');
    store.release(CLIENT, 'retried');
    await clock.advance(12 * 3600);
    const reply = create('retried');
    await clock.advance(12 * 3600);
    // The first claim's window has closed; the second one's has 12 hours to run.
    expect(store.claim(CLIENT, 'retried', BODY)).toEqual({ kind: 'replay', reply });
    await clock.advance(12 * 3600);
    expect(claim('retried')).toBe('new');
  });

  it('still refuses another payload for a held key (PAY-105)', () => {
    const { store, create } = setup();
    create('key_b');
    expect(() => store.claim(CLIENT, 'key_b', { offerUid: 'offer_full_unlock' })).toThrow(
      expect.objectContaining({ code: 'PAY-105' }),
    );
  });

  it('counts the 24 hours from the claim, not from the reply', async () => {
    const { clock, store, claim } = setup();
    expect(claim('slowish')).toBe('new');
    await clock.advance(12 * 3600);
    const reply = { status: 201, body: 'slowish' };
    store.complete(CLIENT, 'slowish', reply);
    await clock.advance(12 * 3600 - 1);
    expect(store.claim(CLIENT, 'slowish', BODY)).toEqual({ kind: 'replay', reply });
    await clock.advance(1);
    expect(claim('slowish')).toBe('new');
  });

  it('refuses another payload while the key is still running (PAY-105 before PAY-104)', () => {
    const { store, claim } = setup();
    expect(claim('running')).toBe('new');
    expect(() => store.claim(CLIENT, 'running', { offerUid: 'offer_full_unlock' })).toThrow(
      expect.objectContaining({ code: 'PAY-105' }),
    );
  });

  it('holds at most its maximum of replies, forgetting the least recently used first', () => {
    const { create, claim } = setup(2);
    create('first');
    create('second');
    expect(claim('first')).toBe('replay');
    create('third');
    expect(claim('first')).toBe('replay');
    expect(claim('third')).toBe('replay');
    expect(claim('second')).toBe('new');
  });

  it('frees replies no one asked for again as their windows close, oldest first', async () => {
    const { clock, store, create } = setup();
    for (let n = 0; n < 10; n++) {
      create(`unasked_${n}`);
      await clock.advance(60);
    }
    expect(store.size).toBe(10);
    await clock.advance(IDEMPOTENCY_WINDOW_SECONDS - 10 * 60 + 150);
    create('later');
    // The first three windows have closed; seven replies and the new one are held.
    expect(store.size).toBe(8);
  });
});
