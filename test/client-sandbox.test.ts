/**
 * The API client against the sandbox emulator: every method over real HTTP, with the service's
 * own answers (envelopes, idempotency, PAY-104, PAY-106, ATH-001) rather than scripted ones.
 */
import { createClient, DcbApiError, type DcbClient, DcbError } from '@dcbkit/core';
import { type Sandbox, startSandbox } from '@dcbkit/sandbox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const PARAMS = {
  mode: 'HOSTED',
  offerUid: 'offer_day_pass',
  returnUrl: 'https://partner.example/return',
  metadata: { userId: 'u_42' },
} as const;

let release: () => void = () => {};
let held = Promise.resolve();
let onHold: () => void = () => {};
let sandbox: Sandbox;
let client: DcbClient;

beforeEach(async () => {
  held = Promise.resolve();
  onHold = () => {};
  sandbox = await startSandbox({
    port: 0,
    holdPaymentCreation: () => {
      onHold();
      return held;
    },
  });
  client = createClient({ environment: 'sandbox', baseUrl: sandbox.apiBaseUrl, ...sandbox.credentials });
});
afterEach(() => sandbox.close());

describe('client against the sandbox', () => {
  it('creates, reads and cancels a payment', async () => {
    const payment = await client.payments.create(PARAMS);
    expect(payment).toMatchObject({
      object: 'payment',
      status: 'REQUIRES_ACTION',
      offerUid: 'offer_day_pass',
      productUid: 'prod_day_pass',
    });
    expect(payment.checkoutUrl).toBe(`${sandbox.checkoutBaseUrl}/c/${payment.paymentUid}`);
    await expect(client.payments.retrieve(payment.paymentUid)).resolves.toEqual(payment);
    await expect(client.payments.cancel(payment.paymentUid)).resolves.toMatchObject({ status: 'CANCELED' });
    const again = await client.payments.cancel(payment.paymentUid).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(DcbApiError);
    expect(again).toMatchObject({ code: 'PAY-106', httpStatus: 409, source: 'service' });
  });

  it('replays a create with the same key instead of making a second payment', async () => {
    const first = await client.payments.create(PARAMS, { idempotencyKey: 'order-000042' });
    const second = await client.payments.create(PARAMS, { idempotencyKey: 'order-000042' });
    expect(second.paymentUid).toBe(first.paymentUid);
  });

  it('retries PAY-104 with the same key until the first request completes', async () => {
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const firstIsHeld = new Promise<void>((resolve) => {
      onHold = resolve;
    });
    // The second client's wait before its retry is when the first request is let through.
    const waits: number[] = [];
    const patient = createClient({
      environment: 'sandbox',
      baseUrl: sandbox.apiBaseUrl,
      ...sandbox.credentials,
      sleep: async (ms) => {
        waits.push(ms);
        release();
      },
    });
    const first = client.payments.create(PARAMS, { idempotencyKey: 'order-000043' });
    await firstIsHeld;
    const second = await patient.payments.create(PARAMS, { idempotencyKey: 'order-000043' });
    expect(second.paymentUid).toBe((await first).paymentUid);
    expect(waits.length).toBeGreaterThanOrEqual(1);
  });

  it('reads capabilities, narrowed by operator or not', async () => {
    const all = await client.capabilities.retrieve({ countryCode: 'TN' });
    expect(all.length).toBeGreaterThan(0);
    for (const capabilities of all) expect(capabilities.countryCode).toBe('TN');
    const one = await client.capabilities.retrieve({ countryCode: 'TN', operator: 'SAHEL_MOBILE' });
    expect(one).toEqual([expect.objectContaining({ operator: 'SAHEL_MOBILE', consentMethods: ['PIN'] })]);
  });

  it("surfaces the service's codes: CAT-102, SUB-101", async () => {
    const unknownOffer = await client.payments
      .create({ ...PARAMS, offerUid: 'offer_nope' })
      .catch((e: unknown) => e);
    expect(unknownOffer).toMatchObject({ code: 'CAT-102', httpStatus: 404 });
    const unknownSubscription = await client.subscriptions.retrieve('sub_nope').catch((e: unknown) => e);
    expect(unknownSubscription).toMatchObject({ code: 'SUB-101', httpStatus: 404 });
  });

  it('turns wrong credentials into token_refused (the sandbox answers ATH-001)', async () => {
    const wrong = createClient({
      environment: 'sandbox',
      baseUrl: sandbox.apiBaseUrl,
      clientId: sandbox.credentials.clientId,
      clientSecret: 'not-the-secret',
    });
    const error = await wrong.payments.retrieve('pay_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DcbError);
    expect(error).toMatchObject({
      httpStatus: 401,
      code: 'token_refused',
      details: { serviceCode: 'ATH-001' },
    });
  });
});
