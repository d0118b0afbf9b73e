import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventSchemaFor } from '../schemas/webhook-event.js';
import { eventProblem, parseWebhookEvent } from './parse-webhook-event.js';

// The hand-written validator must accept exactly what the zod schemas accept: generate
// candidates that are mostly right with one or two fields wrong, and compare the verdicts.

const timestamp = fc.oneof(
  fc
    .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constantFrom(
    '2026-02-29T10:00:00Z',
    '2024-02-29T10:00:00Z',
    '2026-11-22T10:00Z',
    '2026-11-22T10:00:00+01:00',
    '2026-11-22T10:00:00.123456+14:00',
    '2026-11-22T24:00:00Z',
    '2026-11-22 10:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-11-22T10:00:00',
    '',
  ),
);
const id = fc.oneof(fc.string({ maxLength: 6 }), fc.constant(undefined), fc.integer(), fc.constant(null));
const money = fc.oneof(
  fc.record({ amount: fc.integer(), currency: fc.constantFrom('TND', 'EUR', 'tnd', 'EURO') }),
  fc.record({ amount: fc.double(), currency: fc.constant('TND') }),
  fc.constant(undefined),
  fc.constant('4500'),
);
const nullableTimestamp = fc.oneof(timestamp, fc.constant(null), fc.constant(undefined), fc.integer());
const candidate = fc.record(
  {
    event: fc.oneof(
      fc.constantFrom(
        'payment.succeeded',
        'payment.failed',
        'subscription.updated',
        'entitlement.revoked',
        'x.new',
      ),
      fc.constant(''),
      fc.integer(),
    ),
    occurredAt: fc.oneof(timestamp, fc.constant(undefined)),
    paymentUid: id,
    productUid: id,
    offerUid: id,
    orderId: id,
    subscriberUid: id,
    subscriptionUid: id,
    status: fc.oneof(
      fc.constantFrom('SUCCEEDED', 'FAILED', 'PAID', 'ACTIVE'),
      fc.constant(undefined),
      fc.integer(),
    ),
    subscriptionStatus: fc.oneof(fc.constantFrom('ACTIVE', 'PRE_CANCELED', 'GONE'), fc.constant(undefined)),
    amountCollected: money,
    periodOutstanding: money,
    metadata: fc.oneof(
      fc.constant({ accountKey: 'u_1' }),
      fc.constant([]),
      fc.constant('m'),
      fc.constant(undefined),
    ),
    currentPeriodEnd: fc.oneof(timestamp, fc.constant(undefined), fc.constant(null)),
    cancelAt: nullableTimestamp,
    trialEndsAt: nullableTimestamp,
  },
  { requiredKeys: [] },
);

/** JSON has no undefined: drop those keys, as a parsed body would. */
function asJson(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

describe('parseWebhookEvent', () => {
  it('accepts exactly what the zod event schemas accept', () => {
    fc.assert(
      fc.property(candidate, (raw) => {
        const json = asJson(raw);
        const zodAccepts = eventSchemaFor(json.event).safeParse(json).success;
        expect(eventProblem(json) === undefined).toBe(zodAccepts);
      }),
      { numRuns: 5_000 },
    );
  });

  it('returns the event as received, unknown fields kept', () => {
    const body = JSON.stringify({ event: 'x.new', occurredAt: '2026-11-22T10:00:00Z', extra: { a: 1 } });
    expect(parseWebhookEvent(body)).toEqual(JSON.parse(body));
  });

  it('says which field is wrong', () => {
    const body = JSON.stringify({
      event: 'payment.succeeded',
      occurredAt: '2026-11-22T10:00:00Z',
      paymentUid: 'p',
    });
    expect(() => parseWebhookEvent(body)).toThrow(/productUid: required/);
  });
});
