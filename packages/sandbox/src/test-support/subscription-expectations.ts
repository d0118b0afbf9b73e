import type { Subscription, WebhookEvent } from '@dcbkit/core';
import { eventKey } from '@dcbkit/core/store';
import { expect } from 'vitest';
import type { SandboxConfig } from '../config/config-schema.js';
import {
  DAY_SECONDS,
  entitlementStatusFor,
  partnerEntitlement,
  readSubscription,
  receivedEvents,
  type SubscriptionWorld,
} from './subscription-world.js';

/** An amount in the default config's currency. */
export const TND = (amount: number) => ({ amount, currency: 'TND' });
/** Midnight UTC of a day of 2030, where the test sandboxes start. */
export const day = (date: string) => `2030-${date}T00:00:00.000Z`;

/** The default config's subscription offer. */
export function premium(config: SandboxConfig) {
  const offer = config.offers.find((candidate) => candidate.offerUid === 'offer_premium_monthly');
  if (!offer) throw new Error('The default config lost its subscription offer.');
  return offer;
}

export const withoutTrial = (config: SandboxConfig) => {
  premium(config).trialDays = 0;
};

export async function advanceDays(w: SubscriptionWorld, days: number): Promise<void> {
  await w.sandbox.advanceClock(days * DAY_SECONDS);
}

/**
 * Reads the subscription through the API, and checks that a partner applying core's access rules
 * to the webhooks received so far agrees with it.
 */
export async function expectSubscription(
  w: SubscriptionWorld,
  subscriptionUid: string,
  expected: Partial<Subscription>,
): Promise<Subscription> {
  const subscription = await readSubscription(w, subscriptionUid);
  expect(subscription).toMatchObject(expected);
  const entitlement = partnerEntitlement(w, await receivedEvents(w));
  expect(entitlement?.status).toBe(entitlementStatusFor(subscription.status));
  return subscription;
}

/** Every event is told apart by core's ledger key, so none is taken for a redelivery of another. */
export function expectDistinctIdentities(events: WebhookEvent[]): void {
  expect(new Set(events.map(eventKey)).size).toBe(events.length);
}
