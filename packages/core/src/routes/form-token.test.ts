import { describe, expect, it } from 'vitest';
import { checkoutIdempotencyKey } from './checkout-nonce.js';
import { createFormToken, DEFAULT_FORM_TOKEN_MAX_AGE_MS, verifyFormToken } from './form-token.js';

const NOW = Date.parse('2026-11-24T10:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const keys = { secrets: ['form-secret'], maxAgeMs: DEFAULT_FORM_TOKEN_MAX_AGE_MS };
const alice = { accountKey: 'alice', session: 'sess_1' };

describe('form tokens', () => {
  it('verify for the account and session they were made for, giving the nonce', () => {
    const token = createFormToken(keys, alice, NOW);
    const nonce = verifyFormToken(keys, alice, token, NOW + 1_000);
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(token.startsWith(`${nonce}.`)).toBe(true);
  });

  it('are refused for another account, another session, or none when one was named', () => {
    const token = createFormToken(keys, alice, NOW);
    expect(verifyFormToken(keys, { accountKey: 'bob', session: 'sess_1' }, token, NOW)).toBeUndefined();
    expect(verifyFormToken(keys, { accountKey: 'alice', session: 'sess_2' }, token, NOW)).toBeUndefined();
    expect(verifyFormToken(keys, { accountKey: 'alice' }, token, NOW)).toBeUndefined();
  });

  it('expire after maxAgeMs: one still accepted 400 days later was the bug', () => {
    const token = createFormToken(keys, alice, NOW);
    expect(verifyFormToken(keys, alice, token, NOW + DEFAULT_FORM_TOKEN_MAX_AGE_MS)).toBeDefined();
    expect(verifyFormToken(keys, alice, token, NOW + DEFAULT_FORM_TOKEN_MAX_AGE_MS + 1_000)).toBeUndefined();
    expect(verifyFormToken(keys, alice, token, NOW + 400 * DAY)).toBeUndefined();
    const short = { ...keys, maxAgeMs: 60_000 };
    expect(verifyFormToken(short, alice, createFormToken(short, alice, NOW), NOW + 61_000)).toBeUndefined();
  });

  it('carry their issue time inside the mac: moving it forward breaks the token', () => {
    const token = createFormToken(keys, alice, NOW);
    const [nonce, , mac] = token.split('.');
    const later = Math.floor((NOW + 300 * DAY) / 1000).toString(36);
    expect(verifyFormToken(keys, alice, `${nonce}.${later}.${mac}`, NOW + 300 * DAY)).toBeUndefined();
  });

  it('are refused when issued further in the future than clocks drift apart', () => {
    expect(verifyFormToken(keys, alice, createFormToken(keys, alice, NOW + 60_000), NOW)).toBeDefined();
    expect(verifyFormToken(keys, alice, createFormToken(keys, alice, NOW + DAY), NOW)).toBeUndefined();
  });

  it('verify under any configured secret and are made with the first, so a rotation keeps rendered forms', () => {
    const before = createFormToken({ ...keys, secrets: ['old'] }, alice, NOW);
    const rotating = { ...keys, secrets: ['new', 'old'] };
    expect(verifyFormToken(rotating, alice, before, NOW)).toBeDefined();
    const during = createFormToken(rotating, alice, NOW);
    expect(verifyFormToken({ ...keys, secrets: ['new'] }, alice, during, NOW)).toBeDefined();
    expect(verifyFormToken({ ...keys, secrets: ['old'] }, alice, during, NOW)).toBeUndefined();
  });

  it('never pass for a malformed value', () => {
    for (const value of [undefined, 42, '', 'a.b.c', `${'a'.repeat(24)}.zz.${'b'.repeat(42)}`]) {
      expect(verifyFormToken(keys, alice, value, NOW)).toBeUndefined();
    }
  });

  it('tell apart account keys that UTF-8 would merge (lone surrogates) and ones a separator would', () => {
    for (const [one, other] of [
      ['x\uD800', 'x\uFFFD'],
      ['x\uDC00', 'x\uFFFD'],
      ['x\uD800', 'x\uDC00'],
    ]) {
      const token = createFormToken(keys, { accountKey: one as string }, NOW);
      expect(verifyFormToken(keys, { accountKey: other as string }, token, NOW)).toBeUndefined();
    }
    const joined = createFormToken(keys, { accountKey: 'a\nb', session: 'c' }, NOW);
    expect(verifyFormToken(keys, { accountKey: 'a', session: 'b\nc' }, joined, NOW)).toBeUndefined();
  });
});

describe('checkout idempotency keys', () => {
  it('differ for account keys that UTF-8 would merge, and for triples a separator would', () => {
    const keyOf = (account: string) => checkoutIdempotencyKey(account, 'offer_1', 'nonce_nonce_nonce');
    expect(new Set([keyOf('x\uD800'), keyOf('x\uDC00'), keyOf('x\uFFFD')]).size).toBe(3);
    expect(checkoutIdempotencyKey('a\nb', 'c', 'n')).not.toBe(checkoutIdempotencyKey('a', 'b\nc', 'n'));
  });
});
