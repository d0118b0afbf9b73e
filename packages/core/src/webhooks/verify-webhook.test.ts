import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDcbError } from '../errors/dcb-error.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { memoryStore } from '../store/memory-store.js';
import { createWebhookHandler } from './create-webhook-handler.js';
import { signWebhook } from './sign-webhook.js';
import { signWebhookAsync, signWithWebCrypto } from './sign-webhook-async.js';
import { parseSignatureHeader } from './signature-header.js';
import {
  body,
  deliveryWith,
  event,
  NOW,
  OLD_SECRET,
  OPTION_MISTAKES,
  REFUSALS,
  SECRET,
  signed,
  T,
} from './test-support/verification-vectors.js';
import type { VerifyWebhookOptions } from './verify-checks.js';
import { verifyWebhook } from './verify-webhook.js';
import { verifyWebhookAsync } from './verify-webhook-async.js';
import { verifyWithWebCrypto } from './verify-with-web-crypto.js';
import { type WebhookVerificationCode, WebhookVerificationError } from './webhook-verification-error.js';

type Verify = (options: VerifyWebhookOptions) => WebhookEvent | Promise<WebhookEvent>;

// Every test of this file runs over each verifier: the sync one, and the async one on each HMAC it
// may choose (node's crypto here on Node; Web Crypto, as on an edge runtime).
const VERIFIERS: Array<[name: string, verify: Verify]> = [
  ['verifyWebhook', verifyWebhook],
  ['verifyWebhookAsync on node:crypto', verifyWebhookAsync],
  ['verifyWebhookAsync on Web Crypto', (options) => verifyWithWebCrypto(options, 'verifyWebhookAsync')],
];
const ASYNC_VERIFIERS = VERIFIERS.slice(1);

async function errorOf(verify: Verify, options: VerifyWebhookOptions): Promise<unknown> {
  try {
    await verify(options);
    return undefined;
  } catch (error) {
    return error;
  }
}

async function reasonOf(
  verify: Verify,
  options: VerifyWebhookOptions,
): Promise<WebhookVerificationCode | 'accepted'> {
  const error = await errorOf(verify, options);
  if (error === undefined) return 'accepted';
  if (error instanceof WebhookVerificationError) return error.code;
  throw error;
}

describe.each(VERIFIERS)('%s', (_name, verify) => {
  it('returns the typed event for a correctly signed body', async () => {
    const verified = await verify({
      rawBody: Buffer.from(body),
      signature: signed(),
      secrets: SECRET,
      now: NOW,
    });
    expect(verified).toEqual(event);
  });

  it.each(REFUSALS)('refuses %s', async (_label, change, reason) => {
    expect(await reasonOf(verify, deliveryWith(change))).toBe(reason);
  });

  it('accepts a timestamp exactly at the tolerance, in the past and in the future', async () => {
    for (const t of [T - 300, T + 300]) {
      expect(await reasonOf(verify, deliveryWith({ signature: signed(body, SECRET, t) }))).toBe('accepted');
    }
  });

  it('honours a custom tolerance', async () => {
    const signature = signed(body, SECRET, T - 60);
    expect(await reasonOf(verify, deliveryWith({ signature, toleranceSeconds: 59 }))).toBe(
      'timestamp_out_of_tolerance',
    );
    expect(await reasonOf(verify, deliveryWith({ signature, toleranceSeconds: 60 }))).toBe('accepted');
  });

  it('refuses a tolerance or a clock that would switch replay protection off', async () => {
    // A delivery captured 90 days ago: a NaN, infinite or huge tolerance, or an invalid clock, would accept it.
    const captured = signed(body, SECRET, T - 90 * 86_400);
    const attempts: Array<Partial<VerifyWebhookOptions>> = [
      { toleranceSeconds: Number(process.env.DCBKIT_UNSET_TOLERANCE) },
      { toleranceSeconds: Number.POSITIVE_INFINITY },
      { toleranceSeconds: 1e9 },
      { toleranceSeconds: 0 },
      { toleranceSeconds: 1.5 },
      { now: new Date('x') },
    ];
    for (const options of attempts) {
      expect(await errorOf(verify, deliveryWith({ signature: captured, ...options }))).toEqual(
        expect.objectContaining({ code: 'invalid_option' }),
      );
    }
  });

  it('accepts any configured secret while rotating', async () => {
    for (const secret of [SECRET, OLD_SECRET]) {
      const signature = signed(body, secret);
      expect(await reasonOf(verify, deliveryWith({ signature, secrets: [SECRET, OLD_SECRET] }))).toBe(
        'accepted',
      );
    }
  });

  it('accepts when any of several v1 entries matches, ignoring other schemes and spaces', async () => {
    const good = parseSignatureHeader(signed()).v1[0];
    const other = parseSignatureHeader(signed(body, OLD_SECRET)).v1[0];
    const header = `t=${T}, v0=deadbeef, v1=${other} , v1=${good}`;
    expect(await reasonOf(verify, deliveryWith({ signature: header }))).toBe('accepted');
  });

  it('hashes the exact bytes: Buffer, Uint8Array and string bodies with multi-byte UTF-8 agree', async () => {
    const bytes = Buffer.from(body, 'utf8');
    expect(bytes.length).toBeGreaterThan(body.length);
    const signature = signed(bytes);
    expect(signature).toBe(signed(body));
    for (const rawBody of [bytes, new Uint8Array(bytes), body]) {
      expect((await verify({ rawBody, signature, secrets: SECRET, now: NOW })).metadata).toEqual(
        event.metadata,
      );
    }
  });

  it('refuses the same text in another encoding', async () => {
    const latin1 = Buffer.from(body, 'latin1');
    expect(await reasonOf(verify, deliveryWith({ rawBody: latin1 }))).toBe('signature_mismatch');
  });

  it('accepts a Uint8Array view into a larger buffer', async () => {
    const backing = Buffer.concat([Buffer.from('xxxx'), Buffer.from(body), Buffer.from('yyyy')]);
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 4, backing.length - 8);
    expect((await verify(deliveryWith({ rawBody: view }))).paymentUid).toBe('pay_1');
  });

  it('parses an unknown event name as a generic event', async () => {
    const future = JSON.stringify({
      event: 'loyalty.points_awarded',
      occurredAt: event.occurredAt,
      points: 10,
    });
    const verified = await verify(deliveryWith({ rawBody: future, signature: signed(future) }));
    expect(verified.event).toBe('loyalty.points_awarded');
  });

  it('tolerates unknown fields on a known event', async () => {
    const extended = JSON.stringify({ ...event, newField: { nested: true } });
    const verified = await verify(deliveryWith({ rawBody: extended, signature: signed(extended) }));
    expect(verified.paymentUid).toBe('pay_1');
  });

  it('never puts a secret or the signature in an error message', async () => {
    const signature = signed(body, 'whsec_wrong_secret_value');
    for (const change of [
      { signature },
      { signature: signed(body, SECRET, T - 999) },
      { rawBody: 'nope', signature: signed('nope') },
    ]) {
      const error = (await errorOf(verify, deliveryWith(change))) as Error;
      expect(error).toBeInstanceOf(WebhookVerificationError);
      const text = `${error.message} ${String(error.cause ?? '')}`;
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('whsec_wrong_secret_value');
      expect(text).not.toContain(parseSignatureHeader(signature).v1[0]);
    }
  });

  it('explains how to keep the raw body when handed a parsed object', async () => {
    const error = (await errorOf(verify, deliveryWith({ rawBody: event as unknown as string }))) as Error;
    expect(error.message).toMatch(/express\.raw/);
    expect(error.message).toMatch(/Koa/);
    expect(error.message).toMatch(/arrayBuffer\(\)/);
  });

  it.each(OPTION_MISTAKES)(
    'throws invalid_option, not a verification error, for %s',
    async (_label, change) => {
      const error = await errorOf(verify, deliveryWith(change));
      expect(isDcbError(error, 'invalid_option')).toBe(true);
      expect(error).not.toBeInstanceOf(WebhookVerificationError);
    },
  );

  it('rejects any single change to the body, the timestamp or the signature', async () => {
    const bytes = Buffer.from(body);
    const signature = signed(bytes);
    const hex = parseSignatureHeader(signature).v1[0] as string;
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
    await fc.assert(
      fc.asyncProperty(change, async ({ part, index, delta }) => {
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
        expect(await reasonOf(verify, { rawBody, signature: header, secrets: SECRET, now: NOW })).toBe(
          'signature_mismatch',
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe.each(ASYNC_VERIFIERS)('%s, beside verifyWebhook', (_name, verify) => {
  it('refuses every vector with the same error class, code and message', async () => {
    for (const [, change] of REFUSALS) {
      const expected = (await errorOf(verifyWebhook, deliveryWith(change))) as WebhookVerificationError;
      const error = (await errorOf(verify, deliveryWith(change))) as WebhookVerificationError;
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect({ code: error.code, message: error.message }).toEqual({
        code: expected.code,
        message: expected.message,
      });
    }
  });

  it('refuses only by rejecting, never by throwing synchronously', async () => {
    for (const change of [...REFUSALS.map(([, c]) => c), ...OPTION_MISTAKES.map(([, c]) => c)]) {
      const result = verify(deliveryWith(change));
      expect(result).toBeInstanceOf(Promise);
      await expect(result).rejects.toBeInstanceOf(Error);
    }
  });

  it('names itself in an option error', async () => {
    const error = (await errorOf(verify, deliveryWith({ toleranceSeconds: 0 }))) as Error;
    expect(error.message).toMatch(/^verifyWebhookAsync: toleranceSeconds/);
  });
});

describe('verifyWebhookAsync on Web Crypto', () => {
  it('keeps each delivery’s own header while many are verified at once', async () => {
    // The header scan is shared: one verification's await must not let another's header replace it.
    const bodies = Array.from({ length: 40 }, (_, i) => JSON.stringify({ ...event, paymentUid: `pay_${i}` }));
    const deliveries = bodies.map((rawBody, i) => ({
      rawBody,
      signature: i % 3 === 0 ? signed(rawBody, 'whsec_someone_else') : signed(rawBody, SECRET, T - i),
      secrets: SECRET,
      now: NOW,
    }));
    const reasons = await Promise.all(
      deliveries.map((options) => reasonOf((o) => verifyWithWebCrypto(o, 'verifyWebhookAsync'), options)),
    );
    expect(reasons).toEqual(deliveries.map((_, i) => (i % 3 === 0 ? 'signature_mismatch' : 'accepted')));
  });
});

describe('createWebhookHandler', () => {
  it('refuses a tolerance that would switch replay protection off', () => {
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

describe.each([
  ['signWebhookAsync on node:crypto', signWebhookAsync],
  ['signWebhookAsync on Web Crypto', signWithWebCrypto],
])('%s', (_name, signAsync) => {
  it('signs exactly as signWebhook, strings and bytes alike', async () => {
    for (const payload of [body, Buffer.from(body), new Uint8Array(Buffer.from(body)), '']) {
      for (const timestamp of [T, NOW, 0]) {
        expect(await signAsync({ payload, secret: SECRET, timestamp })).toBe(
          signWebhook({ payload, secret: SECRET, timestamp }),
        );
      }
    }
  });

  it('rejects a timestamp that is not whole seconds', async () => {
    const result = signAsync({ payload: body, secret: SECRET, timestamp: -1 });
    expect(result).toBeInstanceOf(Promise);
    await expect(result).rejects.toEqual(expect.objectContaining({ code: 'invalid_option' }));
  });
});
