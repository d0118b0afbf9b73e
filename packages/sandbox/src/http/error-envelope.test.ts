import { describe, expect, it } from 'vitest';
import { PaymentRefusal, RequestRefusal, SubscriptionRefusal } from '../refusals/refusals.js';
import { withErrorEnvelope } from './error-envelope.js';
import type { RouteRequest } from './router.js';

const request = {} as RouteRequest;
const refusing = (error: Error) => withErrorEnvelope(() => Promise.reject(error))(request);

describe('withErrorEnvelope maps the services’ typed refusals to the spec’s envelopes', () => {
  it.each([
    [new PaymentRefusal('CAT-102', 'Offer x not found.'), 404],
    [new PaymentRefusal('PAY-106', 'Payment is SUCCEEDED.'), 409],
    [new SubscriptionRefusal('SUB-105', 'No cancellation to withdraw.'), 409],
    [new RequestRefusal('PAY-105', 'Key reused.'), 409],
  ])('%s answers HTTP %i with its code and message', async (refusal, status) => {
    const reply = await refusing(refusal);
    expect(reply.status).toBe(status);
    expect(JSON.parse(reply.body ?? '')).toEqual({
      success: false,
      error: { code: refusal.code, message: refusal.message },
    });
  });

  it('marks a refusal with a delay retryable, in the body and in Retry-After', async () => {
    const reply = await refusing(new RequestRefusal('SEC-001', 'Slow down.', { retryAfterSeconds: 7 }));
    expect(reply.status).toBe(429);
    expect(reply.headers?.['retry-after']).toBe('7');
    expect(JSON.parse(reply.body ?? '').error).toEqual({
      code: 'SEC-001',
      message: 'Slow down.',
      retryable: true,
      retryAfterSeconds: 7,
    });
  });

  it('lets any other error through to the listener (SBX-500 there)', async () => {
    await expect(refusing(new TypeError('bug'))).rejects.toThrow(TypeError);
  });
});
