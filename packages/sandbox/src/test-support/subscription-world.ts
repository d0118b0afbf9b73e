import type {
  Entitlement,
  EntitlementStatus,
  Payment,
  Subscription,
  SubscriptionStatus,
  WebhookEvent,
} from '@dcbkit/core';
import { paymentSchema, subscriptionSchema } from '@dcbkit/core/schemas';
import { decide } from '@dcbkit/core/store';
import { afterEach, expect } from 'vitest';
import type { SandboxConfig } from '../config/config-schema.js';
import { offerDefinitionsOf } from '../config/offer-definitions.js';
import type { Sandbox } from '../start/start-sandbox.js';
import type { BrowserPage } from '../testing/checkout-browser.js';
import { createCheckoutDriver } from '../testing/checkout-driver.js';
import { SandboxCheckoutError } from '../testing/checkout-error.js';
import {
  apiGet,
  apiPost,
  createPayment,
  dataOf,
  getToken,
  type JsonAnswer,
  paymentBody,
} from './api-client.js';
import { startTestSandbox } from './sandbox-fixture.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhook-receiver.js';

export const DAY_SECONDS = 86_400;

/** A sandbox on a frozen clock and a loopback receiver it posts to. */
export interface SubscriptionWorld {
  sandbox: Sandbox;
  receiver: WebhookReceiver;
  /** A fresh token of the demo application: tokens last an hour of sandbox time, and tests move it by days. */
  token(): Promise<string>;
}

export async function startSubscriptionWorld(
  configure?: (config: SandboxConfig) => void,
  receiverOptions: WebhookReceiverOptions = {},
): Promise<SubscriptionWorld> {
  const receiver = await startWebhookReceiver(() => 200, receiverOptions);
  const sandbox = await startTestSandbox({ webhookUrl: receiver.url, ...(configure ? { configure } : {}) });
  return { sandbox, receiver, token: () => getToken(sandbox) };
}

export async function stopSubscriptionWorld(world: SubscriptionWorld | undefined): Promise<void> {
  await world?.sandbox.close();
  await world?.receiver.close();
}

/**
 * Completes a checkout as the subscriber of `msisdn` on mobile data, with the published driver:
 * network recognition where the operator has it, else the PIN the sandbox texted. A refused
 * number's page (or a failed payment's) comes back as is.
 */
export async function payAtCheckout(
  sandbox: Sandbox,
  checkoutUrl: string,
  msisdn: string,
): Promise<BrowserPage> {
  try {
    return (await createCheckoutDriver(sandbox).pay(checkoutUrl, { msisdn })).page;
  } catch (error) {
    if (error instanceof SandboxCheckoutError && error.page) return error.page;
    throw error;
  }
}

export interface Subscribed {
  payment: Payment;
  subscriptionUid: string;
}

/** Buys a subscription offer through the checkout and returns the succeeded payment. */
export async function subscribe(
  world: SubscriptionWorld,
  msisdn = '+21690000000',
  offerUid = 'offer_premium_monthly',
): Promise<Subscribed> {
  const created = await createPayment(
    world.sandbox,
    await world.token(),
    paymentBody(offerUid, { metadata: { userId: 'user_42' } }),
  );
  const payment = dataOf(created, paymentSchema);
  await payAtCheckout(world.sandbox, payment.checkoutUrl, msisdn);
  const paid = await readPayment(world, payment.paymentUid);
  expect(paid.status).toBe('SUCCEEDED');
  if (paid.subscriptionUid === undefined) throw new Error('The payment started no subscription.');
  return { payment: paid, subscriptionUid: paid.subscriptionUid };
}

export async function readPayment(world: SubscriptionWorld, paymentUid: string): Promise<Payment> {
  return dataOf(
    await apiGet(world.sandbox, `/v1/payments/${paymentUid}`, await world.token()),
    paymentSchema,
  );
}

export async function readSubscription(
  world: SubscriptionWorld,
  subscriptionUid: string,
): Promise<Subscription> {
  const token = await world.token();
  return dataOf(
    await apiGet(world.sandbox, `/v1/subscriptions/${subscriptionUid}`, token),
    subscriptionSchema,
  );
}

export async function cancelSubscription(
  world: SubscriptionWorld,
  subscriptionUid: string,
  when: 'NOW' | 'PERIOD_END',
): Promise<JsonAnswer> {
  return apiPost(world.sandbox, `/v1/subscriptions/${subscriptionUid}/cancel`, {
    token: await world.token(),
    body: { when },
  });
}

export async function resumeSubscription(
  world: SubscriptionWorld,
  subscriptionUid: string,
): Promise<JsonAnswer> {
  return apiPost(world.sandbox, `/v1/subscriptions/${subscriptionUid}/resume`, {
    token: await world.token(),
  });
}

/** Runs what is due, then every webhook received so far, each verified with core's verifyWebhook. */
export async function receivedEvents(world: SubscriptionWorld): Promise<WebhookEvent[]> {
  await world.sandbox.deliverDue();
  return world.receiver.verifiedEvents(world.sandbox.credentials.webhookSecret);
}

/** Events as `[name, subscriptionStatus, occurredAt]`: the shape of a sequence at a glance. */
export function timeline(events: WebhookEvent[]): Array<[string, string | undefined, string]> {
  return events.map((event) => [event.event, event.subscriptionStatus, event.occurredAt]);
}

/**
 * What a partner using core's access rules ends up with after these events, in arrival order: the
 * entitlement of user_42 (the metadata `subscribe` sends) to the offer's product.
 */
export function partnerEntitlement(
  world: SubscriptionWorld,
  events: WebhookEvent[],
  offerUid = 'offer_premium_monthly',
): Entitlement | undefined {
  const offer = offerDefinitionsOf(world.sandbox.config).find((candidate) => candidate.offerUid === offerUid);
  if (!offer) throw new Error(`No offer ${offerUid}`);
  const key = { accountKey: 'user_42', productUid: offer.productUid };
  return events.reduce<Entitlement | undefined>(
    (current, event) => decide(event, current, offer, key),
    undefined,
  );
}

/** The entitlement status core's rules should reach for a subscription status. */
export function entitlementStatusFor(status: SubscriptionStatus): EntitlementStatus {
  return status === 'SUSPENDED' || status === 'CANCELED' || status === 'EXPIRED' ? 'REVOKED' : status;
}

/**
 * For a test file: stops each test's world after it, and returns the `start` that makes one.
 *
 * @example
 * const start = useSubscriptionWorld();
 * it('...', async () => { const world = await start(); });
 */
export function useSubscriptionWorld(): (
  configure?: (config: SandboxConfig) => void,
) => Promise<SubscriptionWorld> {
  let world: SubscriptionWorld | undefined;
  afterEach(async () => {
    await stopSubscriptionWorld(world);
    world = undefined;
  });
  return async (configure) => {
    world = await startSubscriptionWorld(configure);
    return world;
  };
}
