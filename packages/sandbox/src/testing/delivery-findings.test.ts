import type { WebhookEvent } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';
import type { DeliveryAttempt, WebhookDelivery } from '../webhooks/delivery-record.js';
import {
  deliveryResult,
  deliveryStats,
  duplicatesResult,
  hasIndentedBody,
  signatureResult,
} from './delivery-findings.js';

const APP = 'http://127.0.0.1:3000/webhooks/dcb';
const OUTAGE = 'http://127.0.0.1:4999/webhooks/outage';

let sequence = 0;

function attempt(answer: number, extra: Partial<DeliveryAttempt> = {}): DeliveryAttempt {
  return {
    number: 1,
    replay: false,
    chaos: null,
    at: '2030-01-01T00:00:00.000Z',
    url: APP,
    signature: 't=1,v1=00',
    httpStatus: answer,
    error: null,
    responseBody: answer < 300 ? '{"received":true}' : '{"received":false,"error":"signature_mismatch"}',
    ok: answer >= 200 && answer < 300,
    ...extra,
  };
}

function delivery(
  attempts: DeliveryAttempt[],
  options: { indented?: boolean; status?: WebhookDelivery['status']; chaos?: string[] } = {},
): WebhookDelivery {
  const payload = {
    event: 'payment.succeeded',
    paymentUid: `pay_${++sequence}`,
    status: 'SUCCEEDED',
    productUid: 'prod_day_pass',
    offerUid: 'offer_day_pass',
    subscriberUid: 'sbr_1',
    metadata: { accountKey: 'alice' },
    occurredAt: '2030-01-01T00:00:00.000Z',
  } as WebhookEvent;
  return {
    id: `evt_${sequence}`,
    clientId: 'svc_test_demo',
    event: payload.event,
    status: options.status ?? (attempts.some((a) => a.ok) ? 'DELIVERED' : 'DEAD_LETTERED'),
    payload,
    body: options.indented ? JSON.stringify(payload, null, 2) : JSON.stringify(payload),
    createdAt: '2030-01-01T00:00:00.000Z',
    firstAttemptAt: null,
    nextAttemptAt: null,
    attempts: attempts.map((a, index) => ({ ...a, number: index + 1 })),
    chaos: options.chaos ?? [],
  };
}

describe('signatureResult', () => {
  it('passes when every body was accepted, and counts the indented ones', () => {
    const deliveries = [delivery([attempt(200)]), delivery([attempt(200)], { indented: true })];
    expect(hasIndentedBody(deliveries[1] as WebhookDelivery)).toBe(true);
    expect(signatureResult({ deliveries, appWebhookUrl: APP })).toMatchObject({
      outcome: 'passed',
      summary: 'Every one of 2 events was accepted, 1 of them with an indented body.',
    });
  });

  it('fails an app that accepted an event signed with another secret, and says it refused one', () => {
    const deliveries = [delivery([attempt(200)])];
    const forged = {
      event: 'payment.succeeded',
      accountKey: 'partner-check-forged',
      productUid: 'prod_premium',
      status: 200,
      responseBody: 'ok',
    };
    const accepted = signatureResult({ deliveries, appWebhookUrl: APP, forged });
    expect(accepted).toMatchObject({
      outcome: 'failed',
      evidence: [
        'payment.succeeded for partner-check-forged, prod_premium, signed with another secret: answered 200 ok',
      ],
    });
    expect(accepted.fix).toMatch(/^verify the Service-Signature of every delivery/);
    expect(
      signatureResult({ deliveries, appWebhookUrl: APP, forged: { ...forged, status: 401 } }),
    ).toMatchObject({
      outcome: 'passed',
      summary: expect.stringMatching(/An event signed with another secret was refused \(401\)\.$/),
    });
  });

  it('names a re-serialising receiver when only indented bodies were refused', () => {
    const refused = delivery([attempt(401)], { indented: true });
    const result = signatureResult({ deliveries: [delivery([attempt(200)]), refused], appWebhookUrl: APP });
    expect(result).toMatchObject({
      outcome: 'failed',
      evidence: [expect.stringContaining('(indented body)')],
    });
    expect(result.fix).toMatch(/^your receiver verifies a re-serialised body/);
  });

  it('names a body parser that took the raw body when the receiver says so', () => {
    const consumed = attempt(500, { responseBody: '{"received":false,"error":"body_not_raw"}' });
    const result = signatureResult({ deliveries: [delivery([consumed])], appWebhookUrl: APP });
    expect(result.fix).toMatch(/mount the webhook route before any JSON body parser/);
    // The summary quotes the app's own status: a 500, not the 400, 401 or 403 of a refused signature.
    expect(result.summary).toBe(
      '1 of 1 events were refused as unsigned or unreadable (answered 500). The receiver says the raw body was gone.',
    );
  });

  it('says to check the secret and the raw body when compact bodies are refused too', () => {
    const deliveries = [delivery([attempt(401)]), delivery([attempt(401)], { indented: true })];
    const result = signatureResult({ deliveries, appWebhookUrl: APP });
    expect(result.summary).toBe('2 of 2 events were refused as unsigned or unreadable (answered 401).');
    expect(result.fix).toMatch(/sandbox\.credentials\.webhookSecret/);
  });

  it('holds against the app neither a stale-signature attempt nor the stand-in’s answers while it was down', () => {
    const stale = attempt(401, { chaos: 'stale-signature' });
    const down = attempt(503, { url: OUTAGE, responseBody: 'down' });
    const deliveries = [delivery([stale, attempt(200)]), delivery([down, attempt(200, { replay: true })])];
    expect(signatureResult({ deliveries, appWebhookUrl: APP }).outcome).toBe('passed');
  });
});

describe('duplicatesResult', () => {
  it('fails a duplicate answered other than 2xx, quoting the answer', () => {
    const deliveries = [
      delivery([attempt(200), attempt(409, { chaos: 'duplicate', responseBody: 'seen it' })]),
    ];
    const result = duplicatesResult({ deliveries, appWebhookUrl: APP });
    expect(result).toMatchObject({
      outcome: 'failed',
      summary: '1 of 1 duplicate deliveries were not answered 2xx.',
      evidence: [expect.stringMatching(/attempt 2 \(duplicate\): 409 seen it$/)],
    });
    expect(result.fix).toMatch(/de-duplicate on the event’s key and acknowledge the copy/);
  });

  it('passes acknowledged duplicates, and skips when there was none', () => {
    const deliveries = [delivery([attempt(200), attempt(200, { chaos: 'duplicate' })])];
    expect(duplicatesResult({ deliveries, appWebhookUrl: APP }).outcome).toBe('passed');
    expect(duplicatesResult({ deliveries: [delivery([attempt(200)])], appWebhookUrl: APP }).outcome).toBe(
      'skipped',
    );
  });
});

describe('deliveryResult', () => {
  it('fails every event left undelivered, with its last answer from the app', () => {
    const lost = delivery([attempt(500, { responseBody: 'boom' }), attempt(503, { url: OUTAGE })]);
    const result = deliveryResult({ deliveries: [delivery([attempt(200)]), lost], appWebhookUrl: APP });
    expect(result).toMatchObject({
      outcome: 'failed',
      evidence: [
        expect.stringMatching(
          /^DEAD_LETTERED: payment\.succeeded evt_\d+ \(compact body\), attempt 1: 500 boom$/,
        ),
      ],
    });
    expect(result.fix).toMatch(/^answer 2xx once an event is processed/);
  });

  it('sends the reader to the signature check when the app refused them as unsigned to the end', () => {
    const result = deliveryResult({
      deliveries: [delivery([attempt(401)], { indented: true })],
      appWebhookUrl: APP,
    });
    expect(result.fix).toMatch(/fix what the signature check says/);
  });

  it('passes when all were delivered', () => {
    expect(deliveryResult({ deliveries: [delivery([attempt(200)])], appWebhookUrl: APP }).outcome).toBe(
      'passed',
    );
  });
});

describe('deliveryStats', () => {
  it('counts what chaos did and what reached the app', () => {
    const deliveries = [
      delivery([attempt(200), attempt(200, { chaos: 'duplicate' })], {
        indented: true,
        chaos: ['body indented', 'held back until a later event was posted'],
      }),
      delivery([attempt(503, { url: OUTAGE }), attempt(200, { replay: true })], {
        chaos: ['first attempt delayed 12 s'],
      }),
    ];
    expect(deliveryStats({ deliveries, appWebhookUrl: APP }, 1)).toEqual({
      events: 2,
      attemptsToApp: 3,
      duplicates: 1,
      heldBack: 1,
      delayed: 1,
      indented: 1,
      deadLettered: 1,
      replays: 1,
    });
  });
});
