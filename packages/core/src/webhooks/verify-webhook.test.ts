import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryLedger } from '../ledger/memory-ledger.js';
import { memoryStore } from '../store/memory-store.js';
import { createWebhookHandler } from './create-webhook-handler.js';
import { signWebhook } from './sign-webhook.js';
import { parseSignatureHeader } from './signature-header.js';
import { verifyWebhook } from './verify-webhook.js';
import { type WebhookVerificationCode, WebhookVerificationError } from './webhook-verification-error.js';

const SECRET = 'whsec_test_primary_secret';
const OLD_SECRET = 'whsec_test_previous_secret';
const NOW = new Date('2026-11-21T12:00:00.000Z');
const T = Math.floor(NOW.getTime() / 1000);

const event = {
  event: 'payment.succeeded',
  paymentUid: 'pay_1',
  status: 'SUCCEEDED',
  orderId: 'ord_1',
  productUid: 'premium',
  offerUid: 'premium_monthly',
  subscriberUid: 'sbr_1',
  metadata: { accountKey: 'user_42', note: 'café — مرحبا — 😀' },
  occurredAt: '2026-11-21T11:59:58.000Z',
};
const body = JSON.stringify(event);
const signed = (payload: string | Uint8Array = body, secret = SECRET, timestamp = T) =>
  signWebhook({ payload, secret, timestamp });

function reasonOf(run: () => unknown): WebhookVerificationCode | 'accepted' {
  try {
    run();
    return 'accepted';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code;
    throw error;
  }
}

describe('verifyWebhook', () => {
  it('returns the typed event for a correctly signed body', () => {
    const verified = verifyWebhook({
      rawBody: Buffer.from(body),
      signature: signed(),
      secrets: SECRET,
      now: NOW,
    });
    expect(verified).toEqual(event);
  });

  const v1Of = (header: string) => header.slice(header.indexOf('v1=') + 3);
  const cases: Array<[string, Partial<Parameters<typeof verifyWebhook>[0]>, WebhookVerificationCode]> = [
    ['header missing', { signature: undefined }, 'header_missing'],
    ['header empty', { signature: '  ' }, 'header_missing'],
    ['header without t', { signature: `v1=${v1Of(signed())}` }, 'header_malformed'],
    ['header without v1', { signature: `t=${T}` }, 'header_malformed'],
    ['header with only other schemes', { signature: `t=${T},v0=${v1Of(signed())}` }, 'header_malformed'],
    ['header with two t entries', { signature: `t=${T},t=${T},v1=${v1Of(signed())}` }, 'header_malformed'],
    ['header entry without =', { signature: `t=${T},v1` }, 'header_malformed'],
    ['header with an empty entry', { signature: `t=${T},,v1=${v1Of(signed())}` }, 'header_malformed'],
    ['header that is not the format', { signature: 'sha256=abc' }, 'header_malformed'],
    ['timestamp not a number', { signature: `t=abc,v1=${v1Of(signed())}` }, 'timestamp_invalid'],
    ['timestamp with a fraction', { signature: `t=${T}.5,v1=${v1Of(signed())}` }, 'timestamp_invalid'],
    ['timestamp negative', { signature: `t=-${T},v1=${v1Of(signed())}` }, 'timestamp_invalid'],
    ['timestamp empty', { signature: `t=,v1=${v1Of(signed())}` }, 'timestamp_invalid'],
    ['timestamp 301 s old', { signature: signed(body, SECRET, T - 301) }, 'timestamp_out_of_tolerance'],
    ['timestamp 301 s ahead', { signature: signed(body, SECRET, T + 301) }, 'timestamp_out_of_tolerance'],
    ['wrong secret', { signature: signed(body, 'whsec_someone_else') }, 'signature_mismatch'],
    [
      'signature in uppercase hex',
      { signature: `t=${T},v1=${v1Of(signed()).toUpperCase()}` },
      'signature_mismatch',
    ],
    ['signature truncated', { signature: `t=${T},v1=${v1Of(signed()).slice(0, 63)}` }, 'signature_mismatch'],
    ['signature not hex', { signature: `t=${T},v1=${'z'.repeat(64)}` }, 'signature_mismatch'],
    ['body re-serialised', { rawBody: JSON.stringify(JSON.parse(body), null, 2) }, 'signature_mismatch'],
    ['body parsed by a framework', { rawBody: event as unknown as string }, 'body_not_raw'],
    ['body missing', { rawBody: undefined as unknown as string }, 'body_not_raw'],
    ['body not JSON', { rawBody: 'not json', signature: signed('not json') }, 'body_not_json'],
    ['body JSON but not an object', { rawBody: '[1,2]', signature: signed('[1,2]') }, 'event_invalid'],
    [
      'body without event',
      {
        rawBody: '{"occurredAt":"2026-11-21T11:59:58Z"}',
        signature: signed('{"occurredAt":"2026-11-21T11:59:58Z"}'),
      },
      'event_invalid',
    ],
    [
      'payment event without paymentUid',
      {
        rawBody: JSON.stringify({ ...event, paymentUid: undefined }),
        signature: signed(JSON.stringify({ ...event, paymentUid: undefined })),
      },
      'event_invalid',
    ],
  ];

  it.each(cases)('refuses %s', (_label, override, reason) => {
    const options = { rawBody: body, signature: signed(), secrets: SECRET, now: NOW, ...override };
    expect(reasonOf(() => verifyWebhook(options))).toBe(reason);
  });

  it('accepts a timestamp exactly at the tolerance, in the past and in the future', () => {
    for (const t of [T - 300, T + 300]) {
      expect(
        reasonOf(() =>
          verifyWebhook({ rawBody: body, signature: signed(body, SECRET, t), secrets: SECRET, now: NOW }),
        ),
      ).toBe('accepted');
    }
  });

  it('honours a custom tolerance', () => {
    const signature = signed(body, SECRET, T - 60);
    expect(
      reasonOf(() =>
        verifyWebhook({ rawBody: body, signature, secrets: SECRET, now: NOW, toleranceSeconds: 59 }),
      ),
    ).toBe('timestamp_out_of_tolerance');
    expect(
      reasonOf(() =>
        verifyWebhook({ rawBody: body, signature, secrets: SECRET, now: NOW, toleranceSeconds: 60 }),
      ),
    ).toBe('accepted');
  });

  it('refuses a tolerance or a clock that would switch replay protection off', () => {
    // A delivery captured 90 days ago: a NaN, infinite or huge tolerance, or an invalid clock, would accept it.
    const captured = signed(body, SECRET, T - 90 * 86_400);
    const attempts: Array<Partial<Parameters<typeof verifyWebhook>[0]>> = [
      { toleranceSeconds: Number(process.env.DCBKIT_UNSET_TOLERANCE) },
      { toleranceSeconds: Number.POSITIVE_INFINITY },
      { toleranceSeconds: 1e9 },
      { toleranceSeconds: 0 },
      { toleranceSeconds: 1.5 },
      { now: new Date('x') },
    ];
    for (const options of attempts) {
      expect(() =>
        verifyWebhook({ rawBody: body, signature: captured, secrets: SECRET, now: NOW, ...options }),
      ).toThrow(expect.objectContaining({ code: 'invalid_option' }));
    }
    expect(() =>
      createWebhookHandler({
        secrets: SECRET,
        store: memoryStore(),
        ledger: memoryLedger(),
        offers: [],
        toleranceSeconds: Number.NaN,
      }),
    ).toThrow(expect.objectContaining({ code: 'invalid_option', details: { option: 'toleranceSeconds' } }));
  });

  it('accepts any configured secret while rotating', () => {
    for (const secret of [SECRET, OLD_SECRET]) {
      const signature = signed(body, secret);
      expect(
        reasonOf(() => verifyWebhook({ rawBody: body, signature, secrets: [SECRET, OLD_SECRET], now: NOW })),
      ).toBe('accepted');
    }
    expect(
      reasonOf(() =>
        verifyWebhook({ rawBody: body, signature: signed(body, OLD_SECRET), secrets: [SECRET], now: NOW }),
      ),
    ).toBe('signature_mismatch');
  });

  it('accepts when any of several v1 entries matches, ignoring other schemes and spaces', () => {
    const good = parseSignatureHeader(signed()).v1[0];
    const other = parseSignatureHeader(signed(body, OLD_SECRET)).v1[0];
    const header = `t=${T}, v0=deadbeef, v1=${other} , v1=${good}`;
    expect(
      reasonOf(() => verifyWebhook({ rawBody: body, signature: header, secrets: SECRET, now: NOW })),
    ).toBe('accepted');
  });

  it('refuses a header with more v1 entries than a rotation needs', () => {
    const good = parseSignatureHeader(signed()).v1[0];
    const header = `t=${T},${Array.from({ length: 16 }, () => `v1=${'0'.repeat(64)}`).join(',')},v1=${good}`;
    expect(
      reasonOf(() => verifyWebhook({ rawBody: body, signature: header, secrets: SECRET, now: NOW })),
    ).toBe('header_malformed');
  });

  it('hashes the exact bytes: Buffer, Uint8Array and string bodies with multi-byte UTF-8 agree', () => {
    const bytes = Buffer.from(body, 'utf8');
    expect(bytes.length).toBeGreaterThan(body.length);
    const signature = signed(bytes);
    expect(signature).toBe(signed(body));
    for (const rawBody of [bytes, new Uint8Array(bytes), body]) {
      expect(verifyWebhook({ rawBody, signature, secrets: SECRET, now: NOW }).metadata).toEqual(
        event.metadata,
      );
    }
  });

  it('refuses the same text in another encoding', () => {
    const latin1 = Buffer.from(body, 'latin1');
    expect(
      reasonOf(() => verifyWebhook({ rawBody: latin1, signature: signed(), secrets: SECRET, now: NOW })),
    ).toBe('signature_mismatch');
  });

  it('accepts a Uint8Array view into a larger buffer', () => {
    const backing = Buffer.concat([Buffer.from('xxxx'), Buffer.from(body), Buffer.from('yyyy')]);
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 4, backing.length - 8);
    expect(verifyWebhook({ rawBody: view, signature: signed(), secrets: SECRET, now: NOW }).paymentUid).toBe(
      'pay_1',
    );
  });

  it('parses an unknown event name as a generic event', () => {
    const future = JSON.stringify({
      event: 'loyalty.points_awarded',
      occurredAt: event.occurredAt,
      points: 10,
    });
    const verified = verifyWebhook({ rawBody: future, signature: signed(future), secrets: SECRET, now: NOW });
    expect(verified.event).toBe('loyalty.points_awarded');
  });

  it('tolerates unknown fields on a known event', () => {
    const extended = JSON.stringify({ ...event, newField: { nested: true } });
    const verified = verifyWebhook({
      rawBody: extended,
      signature: signed(extended),
      secrets: SECRET,
      now: NOW,
    });
    expect(verified.paymentUid).toBe('pay_1');
  });

  it('never puts a secret or the signature in an error message', () => {
    const signature = signed(body, 'whsec_wrong_secret_value');
    for (const options of [
      { rawBody: body, signature, secrets: SECRET },
      { rawBody: body, signature: signed(body, SECRET, T - 999), secrets: SECRET },
      { rawBody: 'nope', signature: signed('nope'), secrets: SECRET },
    ]) {
      try {
        verifyWebhook({ ...options, now: NOW });
        expect.unreachable();
      } catch (error) {
        const text = `${(error as Error).message} ${String((error as Error).cause ?? '')}`;
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain('whsec_wrong_secret_value');
        expect(text).not.toContain(parseSignatureHeader(signature).v1[0]);
      }
    }
  });

  it('explains how to keep the raw body when handed a parsed object', () => {
    try {
      verifyWebhook({ rawBody: event as unknown as string, signature: signed(), secrets: SECRET, now: NOW });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/express\.raw/);
      expect((error as Error).message).toMatch(/Koa/);
    }
  });

  it('throws invalid_option, not a verification error, when no secret is configured', () => {
    expect(() => verifyWebhook({ rawBody: body, signature: signed(), secrets: [], now: NOW })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(() => verifyWebhook({ rawBody: body, signature: signed(), secrets: '', now: NOW })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });

  it('rejects any single change to the body, the timestamp or the signature', () => {
    const bytes = Buffer.from(body);
    const signature = signed(bytes);
    const { v1 } = parseSignatureHeader(signature);
    const hex = v1[0] as string;
    const change = fc.oneof(
      fc.record({
        part: fc.constant('body' as const),
        index: fc.nat(bytes.length - 1),
        delta: fc.integer({ min: 1, max: 255 }),
      }),
      fc.record({
        part: fc.constant('timestamp' as const),
        index: fc.constant(0),
        delta: fc.integer({ min: -300, max: 300 }).filter((d) => d !== 0),
      }),
      fc.record({
        part: fc.constant('signature' as const),
        index: fc.nat(hex.length - 1),
        delta: fc.integer({ min: 1, max: 15 }),
      }),
    );
    fc.assert(
      fc.property(change, ({ part, index, delta }) => {
        let rawBody: Buffer = bytes;
        let header = signature;
        if (part === 'body') {
          rawBody = Buffer.from(bytes);
          rawBody[index] = ((rawBody[index] as number) + delta) % 256;
        } else if (part === 'timestamp') {
          header = `t=${T + delta},v1=${hex}`;
        } else {
          const digit = ((Number.parseInt(hex.charAt(index), 16) + delta) % 16).toString(16);
          header = `t=${T},v1=${hex.slice(0, index)}${digit}${hex.slice(index + 1)}`;
        }
        expect(reasonOf(() => verifyWebhook({ rawBody, signature: header, secrets: SECRET, now: NOW }))).toBe(
          'signature_mismatch',
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('signWebhook', () => {
  it('formats t and a lowercase hex v1 entry, from a Date or unix seconds', () => {
    const header = signWebhook({ payload: body, secret: SECRET, timestamp: NOW });
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(header).toBe(signWebhook({ payload: body, secret: SECRET, timestamp: T }));
  });

  it('refuses a timestamp that is not whole seconds', () => {
    expect(() => signWebhook({ payload: body, secret: SECRET, timestamp: 1.5 })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });
});
