import { describe, expect, it } from 'vitest';
import { isServiceErrorCode, SERVICE_ERROR_CODES } from './api-error-codes.js';
import { errorEnvelopeSchema, successEnvelopeSchema } from './envelope.js';
import { isValidIdempotencyKey } from './idempotency.js';
import { offerDefinitionSchema } from './offer.js';
import { canceledPaymentSchema, PAYMENT_STATUSES, paymentSchema } from './payment.js';
import {
  SUBSCRIPTION_STATUSES,
  subscriptionCancelRequestSchema,
  subscriptionSchema,
} from './subscription.js';
import {
  eventSchemaFor,
  isKnownEventName,
  WEBHOOK_EVENT_NAMES,
  webhookEventSchema,
} from './webhook-event.js';

const payment = {
  object: 'payment',
  paymentUid: 'pay_1',
  mode: 'HOSTED',
  status: 'REQUIRES_ACTION',
  checkoutUrl: 'https://checkout.sandbox.example/c/pay_1',
  productUid: 'premium',
  offerUid: 'premium_monthly',
  expiresAt: '2026-11-21T12:30:00Z',
  metadata: { accountKey: 'user_42' },
};

describe('payment', () => {
  it.each(PAYMENT_STATUSES)('reads status %s in both modes', (status) => {
    for (const mode of ['HOSTED', 'API']) {
      expect(paymentSchema.parse({ ...payment, status, mode }).status).toBe(status);
    }
  });

  it('tolerates unknown fields on reads and drops them', () => {
    const read = paymentSchema.parse({ ...payment, somethingNew: 1 });
    expect(read).toEqual(payment);
  });

  it('refuses an unknown status or a missing required field', () => {
    expect(paymentSchema.safeParse({ ...payment, status: 'PAID' }).success).toBe(false);
    const { checkoutUrl: _omitted, ...withoutCheckoutUrl } = payment;
    expect(paymentSchema.safeParse(withoutCheckoutUrl).success).toBe(false);
  });

  it('reads the cancel response that carries only object, paymentUid and status', () => {
    const read = canceledPaymentSchema.parse({ object: 'payment', paymentUid: 'pay_1', status: 'CANCELED' });
    expect(read.status).toBe('CANCELED');
  });
});

describe('subscription', () => {
  const subscription = {
    subscriptionUid: 'sub_1',
    status: 'TRIALING',
    productUid: 'premium',
    offerUid: 'premium_monthly',
    subscriberUid: 'sbr_1',
    currentPeriodEnd: '2026-12-21T12:00:00Z',
    cancelAt: null,
    trialEndsAt: '2026-11-28T12:00:00Z',
  };
  it.each(SUBSCRIPTION_STATUSES)('reads status %s', (status) => {
    expect(subscriptionSchema.parse({ ...subscription, status }).status).toBe(status);
  });

  it('needs cancelAt present, null when nothing is scheduled', () => {
    const { cancelAt: _omitted, ...withoutCancelAt } = subscription;
    expect(subscriptionSchema.safeParse(withoutCancelAt).success).toBe(false);
  });

  it('takes a cancel body with when only', () => {
    expect(subscriptionCancelRequestSchema.safeParse({ when: 'NOW' }).success).toBe(true);
    expect(subscriptionCancelRequestSchema.safeParse({ when: 'LATER' }).success).toBe(false);
    expect(subscriptionCancelRequestSchema.safeParse({ when: 'NOW', reason: 'x' }).success).toBe(false);
  });
});

describe('webhook events', () => {
  it.each(WEBHOOK_EVENT_NAMES)('knows %s', (name) => {
    expect(isKnownEventName(name)).toBe(true);
    const base = { event: name, occurredAt: '2026-11-21T12:00:00Z' };
    const payload = name.startsWith('payment.')
      ? { ...base, paymentUid: 'pay_1', status: 'SUCCEEDED', productUid: 'p', offerUid: 'o' }
      : base;
    expect(eventSchemaFor(name).safeParse(payload).success).toBe(true);
  });

  it('parses an unknown event name with the generic schema', () => {
    expect(isKnownEventName('invoice.created')).toBe(false);
    expect(eventSchemaFor('invoice.created')).toBe(webhookEventSchema);
    expect(
      webhookEventSchema.parse({ event: 'invoice.created', occurredAt: '2026-11-21T12:00:00Z' }).event,
    ).toBe('invoice.created');
  });

  it('reads renewal money and keeps a status of another kind on non-payment events', () => {
    const renewal = webhookEventSchema.parse({
      event: 'entitlement.updated',
      occurredAt: '2026-12-21T12:00:00Z',
      status: 'IN_GRACE',
      amountCollected: { amount: 0, currency: 'TND' },
      periodOutstanding: { amount: 4500, currency: 'TND' },
    });
    expect(renewal.periodOutstanding).toEqual({ amount: 4500, currency: 'TND' });
  });
});

describe('envelopes and error codes', () => {
  it('reads the success envelope around any data schema', () => {
    const schema = successEnvelopeSchema(paymentSchema);
    expect(schema.parse({ success: true, data: payment }).data.paymentUid).toBe('pay_1');
    expect(schema.safeParse({ success: false, data: payment }).success).toBe(false);
  });

  it('reads the error envelope and checks the code pattern', () => {
    const body = {
      success: false,
      error: { code: 'PAY-101', message: 'balance', retryable: true, retryAfterSeconds: 30 },
    };
    expect(errorEnvelopeSchema.parse(body).error.retryAfterSeconds).toBe(30);
    expect(errorEnvelopeSchema.safeParse({ ...body, error: { ...body.error, code: 'PAY101' } }).success).toBe(
      false,
    );
  });

  it('lists every code of the spec with its HTTP status', () => {
    const spec: Record<string, number> = {
      'ATH-002': 401,
      'AUZ-002': 403,
      'VAL-001': 400,
      'VAL-002': 400,
      'VAL-006': 400,
      'SEC-001': 429,
      'CAT-102': 404,
      'CAT-103': 422,
      'CAT-104': 403,
      'CAT-109': 409,
      'PAY-101': 402,
      'PAY-103': 402,
      'PAY-104': 409,
      'PAY-105': 409,
      'SBR-102': 400,
      'SBR-104': 422,
      'RSK-101': 403,
      'SUB-101': 404,
      'SUB-104': 409,
      'SUB-105': 409,
      'SUB-108': 409,
    };
    for (const [code, status] of Object.entries(spec)) {
      expect(isServiceErrorCode(code)).toBe(true);
      expect(SERVICE_ERROR_CODES[code as keyof typeof SERVICE_ERROR_CODES].httpStatus).toBe(status);
    }
    for (const code of Object.keys(SERVICE_ERROR_CODES)) expect(code).toMatch(/^[A-Z]{3}-[0-9]{3}$/);
  });
});

describe('idempotency key', () => {
  it('takes 8 to 255 characters', () => {
    expect(isValidIdempotencyKey('a'.repeat(7))).toBe(false);
    expect(isValidIdempotencyKey('a'.repeat(8))).toBe(true);
    expect(isValidIdempotencyKey('a'.repeat(255))).toBe(true);
    expect(isValidIdempotencyKey('a'.repeat(256))).toBe(false);
    expect(isValidIdempotencyKey(12345678)).toBe(false);
  });
});

describe('offer definition', () => {
  const offer = {
    offerUid: 'premium_monthly',
    productUid: 'premium',
    name: 'Premium',
    type: 'SUBSCRIPTION',
    price: { amount: 4500, currency: 'TND' },
    billingPeriod: { unit: 'MONTH' },
    trialDays: 7,
  };
  it('fills defaults and needs a billing period for subscriptions', () => {
    const parsed = offerDefinitionSchema.parse(offer);
    expect(parsed.billingPeriod).toEqual({ unit: 'MONTH', count: 1 });
    expect(parsed.gracePolicy).toEqual({ days: 0, accessDuringGrace: false });
    expect(offerDefinitionSchema.safeParse({ ...offer, billingPeriod: undefined }).success).toBe(false);
  });

  it('refuses a trial on a one-time offer', () => {
    expect(
      offerDefinitionSchema.safeParse({ ...offer, type: 'CONSUMABLE', billingPeriod: null, trialDays: 1 })
        .success,
    ).toBe(false);
  });
});
