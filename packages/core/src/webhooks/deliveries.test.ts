import { describe, expect, it } from 'vitest';
import { decide } from '../access/decide.js';
import { eventKey } from '../ledger/event-key.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { memoryStore } from '../store/memory-store.js';
import {
  at,
  event,
  NOW,
  offer,
  offers,
  paymentEvent,
  SECRET,
  signedRequest,
} from '../test-support/fixtures.js';
import { createWebhookHandler } from './create-webhook-handler.js';

/** Deterministic randomness (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], next: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

const CREDIT_BUYERS = 40;
const SUBSCRIBERS = 20;

/** 200 distinct events: 40 accounts buying credits three times, 20 subscriptions living four events each. */
function history(): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  for (let a = 0; a < CREDIT_BUYERS; a++) {
    for (let n = 0; n < 3; n++) {
      events.push(
        paymentEvent('payment.succeeded', a + n * 100, 'off_credits', {
          paymentUid: `pay_c${a}_${n}`,
          orderId: `ord_c${a}_${n}`,
          subscriberUid: `sbr_c${a}`,
          metadata: { accountKey: `buyer_${a}` },
        }),
      );
    }
  }
  for (let s = 0; s < SUBSCRIBERS; s++) {
    const subscriptionUid = `sub_${s}`;
    events.push(
      paymentEvent('payment.succeeded', s, 'off_monthly', {
        paymentUid: `pay_s${s}`,
        subscriptionUid,
        subscriberUid: `sbr_s${s}`,
        metadata: { accountKey: `subscriber_${s}` },
        currentPeriodEnd: at(30 * 1440),
      }),
      // Later events carry no metadata: the handler finds them by subscription.
      event('entitlement.updated', 30 * 1440 + s, { subscriptionUid, currentPeriodEnd: at(60 * 1440) }),
      event('entitlement.updated', 60 * 1440 + s, { subscriptionUid, currentPeriodEnd: at(90 * 1440) }),
      event('subscription.updated', 70 * 1440 + s, { subscriptionUid, cancelAt: at(90 * 1440) }),
    );
  }
  return events;
}

/** What in-order processing gives, straight from the rules. */
function expectedState(events: readonly WebhookEvent[]): Map<string, Entitlement> {
  const state = new Map<string, Entitlement>();
  for (const e of events) {
    const account = e.metadata?.accountKey ?? `subscriber_${String(e.subscriptionUid).slice(4)}`;
    const current = [...state.values()].find(
      (entitlement) =>
        entitlement.accountKey === account &&
        (e.productUid === undefined || entitlement.productUid === e.productUid),
    );
    const decidedOffer = offer(e.offerUid ?? current?.offerUid ?? '');
    const key = { accountKey: String(account), productUid: decidedOffer.productUid };
    const next = decide(e, current, decidedOffer, key);
    if (next) state.set(`${key.accountKey}/${key.productUid}`, next);
  }
  return state;
}

async function storedState(store: EntitlementStore): Promise<Map<string, Entitlement>> {
  const state = new Map<string, Entitlement>();
  const accounts = [
    ...Array.from({ length: CREDIT_BUYERS }, (_, a) => `buyer_${a}`),
    ...Array.from({ length: SUBSCRIBERS }, (_, s) => `subscriber_${s}`),
  ];
  for (const account of accounts) {
    for (const entitlement of await store.listByAccount(account)) {
      state.set(`${account}/${entitlement.productUid}`, { ...entitlement });
    }
  }
  return state;
}

/**
 * Delivers like the service: every delivery in a shuffled order, in concurrent batches; any
 * answer other than 2xx goes back into the queue for a later attempt. Bounded.
 */
async function deliverAll(
  handler: ReturnType<typeof createWebhookHandler>,
  deliveries: WebhookEvent[],
  seed: number,
) {
  const next = random(seed);
  const statuses = new Map<number, number>();
  let queue = shuffle([...deliveries], next);
  for (let round = 0; queue.length > 0 && round < 100; round++) {
    const retries: WebhookEvent[] = [];
    for (let start = 0; start < queue.length; ) {
      const size = 1 + Math.floor(next() * 20);
      const batch = queue.slice(start, start + size);
      start += size;
      const responses = await Promise.all(batch.map((e) => handler(signedRequest(e))));
      responses.forEach((response, i) => {
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status !== 200) retries.push(batch[i] as WebhookEvent);
      });
    }
    queue = shuffle(retries, next);
  }
  return { statuses, undelivered: queue.length };
}

function countingHandler(store: EntitlementStore) {
  const applications = new Map<string, number>();
  const count = ({ event: e }: { event: WebhookEvent }) => {
    applications.set(eventKey(e), (applications.get(eventKey(e)) ?? 0) + 1);
  };
  const handler = createWebhookHandler({
    secrets: SECRET,
    store,
    ledger: memoryLedger(),
    offers,
    logger: { warn: () => {}, error: () => {} },
    now: () => NOW,
    on: { 'payment.succeeded': count, 'entitlement.updated': count, 'subscription.updated': count },
  });
  return { handler, applications };
}

describe('at-least-once delivery', () => {
  it('1,000 deliveries with duplicates, some concurrent and out of order, apply each event exactly once', async () => {
    const events = history();
    const deliveries = events.flatMap((e) => [e, e, e, e, e]);
    expect(deliveries).toHaveLength(1000);
    const store = memoryStore();
    const { handler, applications } = countingHandler(store);

    const { statuses, undelivered } = await deliverAll(handler, deliveries, 42);

    expect(undelivered).toBe(0);
    // The run did meet concurrent copies (409) and events overtaking their payment (503).
    expect(statuses.get(409) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect(applications.size).toBe(events.length);
    expect([...applications.values()].every((times) => times === 1)).toBe(true);
    const stored = await storedState(store);
    expect(stored).toEqual(expectedState(events));
    expect(stored.get('buyer_0/prod_credits')?.unitsBought).toBe(3);
    expect(stored.get('subscriber_0/prod_premium')).toMatchObject({
      status: 'PRE_CANCELED',
      currentPeriodEnd: at(90 * 1440),
    });
  });

  it('a store failing on some writes loses nothing once the retries arrive', async () => {
    const events = history();
    const inner = memoryStore();
    let writes = 0;
    const flaky: EntitlementStore = {
      ...inner,
      async update(accountKey, productUid, change) {
        writes++;
        if (writes % 3 === 0) throw new Error('deadlock detected');
        return inner.update(accountKey, productUid, change);
      },
    };
    const { handler, applications } = countingHandler(flaky);

    const { statuses, undelivered } = await deliverAll(
      handler,
      events.flatMap((e) => [e, e]),
      7,
    );

    expect(undelivered).toBe(0);
    expect(statuses.get(500) ?? 0).toBeGreaterThan(0);
    expect(await storedState(inner)).toEqual(expectedState(events));
    // A failed write runs no listener, so even here each event reached the listeners once.
    expect([...applications.values()].every((times) => times === 1)).toBe(true);
    expect(applications.size).toBe(events.length);
  });
});
