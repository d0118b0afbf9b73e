import { signWebhook } from '../sign-webhook.js';
import type { VerifyWebhookOptions } from '../verify-checks.js';
import type { WebhookVerificationCode } from '../webhook-verification-error.js';

// The vectors every verifier answers alike: verifyWebhook, verifyWebhookAsync on node's crypto and
// on Web Crypto (verify-webhook.test.ts), and the neutral bundle in a realm without node's crypto
// (neutral-bundle.test.ts). Signed with node's crypto, so the Web Crypto paths prove they agree.

export const SECRET = 'whsec_test_primary_secret';
export const OLD_SECRET = 'whsec_test_previous_secret';
export const NOW = new Date('2026-11-21T12:00:00.000Z');
export const T = Math.floor(NOW.getTime() / 1000);

export const event = {
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
export const body = JSON.stringify(event);

export const signed = (payload: string | Uint8Array = body, secret = SECRET, timestamp = T) =>
  signWebhook({ payload, secret, timestamp });

export const v1Of = (header: string) => header.slice(header.indexOf('v1=') + 3);

/** A refusal: what to change in a well-signed delivery, and the code it must be refused with. */
export type Refusal = [label: string, change: Partial<VerifyWebhookOptions>, code: WebhookVerificationCode];

export const REFUSALS: Refusal[] = [
  ['header missing', { signature: undefined }, 'header_missing'],
  ['header empty', { signature: '  ' }, 'header_missing'],
  ['header without t', { signature: `v1=${v1Of(signed())}` }, 'header_malformed'],
  ['header without v1', { signature: `t=${T}` }, 'header_malformed'],
  ['header with only other schemes', { signature: `t=${T},v0=${v1Of(signed())}` }, 'header_malformed'],
  ['header with two t entries', { signature: `t=${T},t=${T},v1=${v1Of(signed())}` }, 'header_malformed'],
  ['header entry without =', { signature: `t=${T},v1` }, 'header_malformed'],
  ['header with an empty entry', { signature: `t=${T},,v1=${v1Of(signed())}` }, 'header_malformed'],
  ['header that is not the format', { signature: 'sha256=abc' }, 'header_malformed'],
  [
    'header with more v1 entries than a rotation needs',
    {
      signature: `t=${T},${Array.from({ length: 16 }, () => `v1=${'0'.repeat(64)}`).join(',')},v1=${v1Of(signed())}`,
    },
    'header_malformed',
  ],
  ['timestamp not a number', { signature: `t=abc,v1=${v1Of(signed())}` }, 'timestamp_invalid'],
  ['timestamp with a fraction', { signature: `t=${T}.5,v1=${v1Of(signed())}` }, 'timestamp_invalid'],
  ['timestamp negative', { signature: `t=-${T},v1=${v1Of(signed())}` }, 'timestamp_invalid'],
  ['timestamp empty', { signature: `t=,v1=${v1Of(signed())}` }, 'timestamp_invalid'],
  ['timestamp 301 s old', { signature: signed(body, SECRET, T - 301) }, 'timestamp_out_of_tolerance'],
  ['timestamp 301 s ahead', { signature: signed(body, SECRET, T + 301) }, 'timestamp_out_of_tolerance'],
  ['wrong secret', { signature: signed(body, 'whsec_someone_else') }, 'signature_mismatch'],
  ['previous secret no longer listed', { signature: signed(body, OLD_SECRET) }, 'signature_mismatch'],
  [
    'signature in uppercase hex',
    { signature: `t=${T},v1=${v1Of(signed()).toUpperCase()}` },
    'signature_mismatch',
  ],
  ['signature truncated', { signature: `t=${T},v1=${v1Of(signed()).slice(0, 63)}` }, 'signature_mismatch'],
  ['signature not hex', { signature: `t=${T},v1=${'z'.repeat(64)}` }, 'signature_mismatch'],
  ['body tampered', { rawBody: body.replace('user_42', 'user_43') }, 'signature_mismatch'],
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

/** A well-signed delivery with one change applied. */
export function deliveryWith(change: Partial<VerifyWebhookOptions> = {}): VerifyWebhookOptions {
  return { rawBody: body, signature: signed(), secrets: SECRET, now: NOW, ...change };
}

/** Mistakes of the caller's own options: a DcbError `invalid_option`, never a verification code. */
export const OPTION_MISTAKES: Array<[label: string, change: Partial<VerifyWebhookOptions>]> = [
  ['a NaN tolerance', { toleranceSeconds: Number.NaN }],
  ['an infinite tolerance', { toleranceSeconds: Number.POSITIVE_INFINITY }],
  ['a huge tolerance', { toleranceSeconds: 1e9 }],
  ['a zero tolerance', { toleranceSeconds: 0 }],
  ['a fractional tolerance', { toleranceSeconds: 1.5 }],
  ['an invalid clock', { now: new Date('x') }],
  ['no secret', { secrets: [] }],
  ['an empty secret', { secrets: '' }],
];
