import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountKeyResolver } from '../apply/account-key.js';
import { applyEvent } from '../apply/apply-event.js';
import { applyPaymentRead } from '../apply/apply-payment-read.js';
import { applySubscriptionRead } from '../apply/apply-subscription-read.js';
import { eventKey } from '../ledger/event-key.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { Subscription } from '../schemas/subscription.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { memoryStore } from '../store/memory-store.js';
import {
  at,
  KEY,
  NOW,
  offer,
  offers,
  paymentEvent,
  SECRET,
  signedRequest,
  T0,
} from '../test-support/fixtures.js';
import { createWebhookHandler } from '../webhooks/create-webhook-handler.js';
import { decide } from './decide.js';
import { hasAccess } from './has-access.js';

const monthly = offer('off_monthly');
const metadata = { accountKey: 'user_1' };

/**
 * One event of a subscription's life at a given minute, with the payloads the service may send.
 * Minutes come from a small range, so histories are full of same-instant events.
 */
function lifeEvent(minute: number): fc.Arbitrary<WebhookEvent> {
  const ids = fc.constantFrom(
    { subscriptionUid: 'sub_1', subscriberUid: 'sbr_1' },
    { subscriptionUid: 'sub_2', subscriberUid: 'sbr_2' },
  );
  const periodEnd = fc.integer({ min: 1, max: 60 }).map((days) => at(minute + days * 1440));
  // As the service sends them: the product, the offer and the first payment's metadata on every event.
  const base = (fields: object) => ({
    occurredAt: at(minute),
    productUid: 'prod_premium',
    offerUid: 'off_monthly',
    metadata,
    ...fields,
  });
  return ids.chain((who) =>
    fc.oneof(
      periodEnd.map((currentPeriodEnd) =>
        paymentEvent('payment.succeeded', minute, 'off_monthly', {
          ...who,
          paymentUid: who.subscriptionUid === 'sub_1' ? 'pay_1' : 'pay_2',
          currentPeriodEnd,
        }),
      ),
      fc.constant({ ...base(who), event: 'entitlement.granted' }),
      fc.record({ currentPeriodEnd: periodEnd, grace: fc.boolean() }).map(({ grace, currentPeriodEnd }) => ({
        ...base(who),
        event: 'entitlement.updated',
        currentPeriodEnd,
        subscriptionStatus: grace ? ('IN_GRACE' as const) : ('ACTIVE' as const),
      })),
      // Scheduled (with or without a date), or withdrawn: the pair the sandbox sends at one instant.
      fc.constantFrom('dated', 'undated', 'withdrawn').chain((kind) =>
        periodEnd.map((cancelAt) => ({
          ...base(who),
          event: 'subscription.updated',
          subscriptionStatus: kind === 'withdrawn' ? ('ACTIVE' as const) : ('PRE_CANCELED' as const),
          ...(kind === 'dated' ? { cancelAt } : kind === 'withdrawn' ? { cancelAt: null } : {}),
        })),
      ),
      periodEnd.map((trialEndsAt) => ({ ...base(who), event: 'subscription.trial_started', trialEndsAt })),
      fc
        .constantFrom('entitlement.revoked', 'subscription.canceled', 'subscription.expired')
        .map((name) => ({ ...base(who), event: name })),
    ),
  );
}

/**
 * A history as the service produces it: events in true order (minutes never go back), many at the
 * same minute. Two events with one identity (eventKey) are one event to the ledger: kept once.
 */
const history = fc
  .array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 9 })
  .map((minutes) => minutes.sort((a, b) => a - b))
  .chain((minutes) => fc.tuple(...minutes.map((minute) => lifeEvent(minute * 60))))
  .map((events) => uniqueBy(events, eventKey));

function uniqueBy<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(keyOf(item)) && seen.add(keyOf(item)));
}

function fold(events: readonly WebhookEvent[]): Entitlement | undefined {
  return events.reduce<Entitlement | undefined>((current, e) => decide(e, current, monthly, KEY), undefined);
}

/** Access at instants around every date the history names, plus long after. */
function accessTimeline(entitlement: Entitlement | undefined): boolean[] {
  const instants = [0, 61, 721, 3 * 1440, 40 * 1440, 100 * 1440].map((m) => new Date(T0 + m * 60_000));
  return instants.map((instant) => hasAccess(entitlement, instant));
}

describe('decide: any arrival order of a history with same-instant events ends in the in-order state', () => {
  it('every field and access, with redeliveries', () => {
    const deliveries = history.chain((events) =>
      fc.tuple(
        fc.constant(events),
        fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }),
        fc.array(fc.nat({ max: events.length - 1 }), { maxLength: 4 }),
      ),
    );
    fc.assert(
      fc.property(deliveries, ([inOrder, shuffled, repeats]) => {
        const redelivered = [...shuffled];
        for (const index of repeats) redelivered.splice(index, 0, inOrder[index] as WebhookEvent);
        const expected = fold(inOrder);
        expect(fold(redelivered)).toEqual(expected);
        expect(accessTimeline(fold(redelivered))).toEqual(accessTimeline(expected));
      }),
      { numRuns: 1500 },
    );
  });
});

/** What GET /v1/subscriptions/sub_x answers at `minute`: the state the events until then give. */
function subscriptionAt(events: readonly WebhookEvent[], minute: number): Subscription | undefined {
  const known = fold(events.filter((e) => Date.parse(e.occurredAt) <= T0 + minute * 60_000));
  if (known?.subscriptionUid == null || known.currentPeriodEnd === null || known.subscriberUid === null) {
    return undefined;
  }
  const status = known.status === 'REVOKED' ? 'CANCELED' : known.status;
  return {
    subscriptionUid: known.subscriptionUid,
    status,
    productUid: known.productUid,
    offerUid: known.offerUid,
    subscriberUid: known.subscriberUid,
    currentPeriodEnd: known.currentPeriodEnd,
    cancelAt: status === 'PRE_CANCELED' ? known.cancelAt : null,
    // This history's ACTIVE is always paid (its withdrawals carry no trial end), and a paid
    // subscription names no trial end still ahead: ACTIVE with one is a resumed trial.
    trialEndsAt: status === 'ACTIVE' ? null : known.trialEndsAt,
  };
}

type Read = { kind: 'payment' | 'payment_untimed' | 'subscription'; minute: number };
type Arrival = { event: WebhookEvent } | { read: Read };

/** Events in any order, and reads between them: a read at minute R comes before every event after R. */
const withReads = history.chain((events) =>
  fc.tuple(
    fc.constant(events),
    fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }),
    fc.array(
      fc.record({
        kind: fc.constantFrom('payment', 'payment_untimed', 'subscription') as fc.Arbitrary<Read['kind']>,
        minute: fc.integer({ min: 0, max: 13 * 60 }),
        place: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      { maxLength: 3 },
    ),
  ),
);

function interleave(
  shuffled: readonly WebhookEvent[],
  reads: readonly (Read & { place: number })[],
): Arrival[] {
  const arrivals: Arrival[] = shuffled.map((event) => ({ event }));
  let from = 0;
  for (const read of [...reads].sort((a, b) => a.minute - b.minute)) {
    const after = arrivals.findIndex(
      (a) => 'event' in a && Date.parse(a.event.occurredAt) > T0 + read.minute * 60_000,
    );
    const to = after === -1 ? arrivals.length : Math.max(after, from);
    const position = from + Math.floor(read.place * (to - from + 1));
    const at = Math.min(position, to);
    arrivals.splice(at, 0, { read: { kind: read.kind, minute: read.minute } });
    from = at + 1;
  }
  return arrivals;
}

function partnerApp() {
  const store = memoryStore();
  const handler = createWebhookHandler({
    secrets: SECRET,
    store,
    ledger: memoryLedger({ max: 64 }),
    offers,
    now: () => NOW,
    logger: {},
  });
  return { store, handler };
}

async function deliver(handler: ReturnType<typeof partnerApp>['handler'], events: readonly WebhookEvent[]) {
  for (const event of events) {
    const answer = await handler(signedRequest(event));
    expect(answer.status).toBe(200);
  }
}

async function runRead(
  read: Read,
  events: readonly WebhookEvent[],
  store: ReturnType<typeof memoryStore>,
): Promise<void> {
  const observedAt = new Date(T0 + read.minute * 60_000);
  const subscription = subscriptionAt(events, read.minute);
  if (subscription === undefined) return;
  if (read.kind === 'subscription') {
    await applySubscriptionRead(subscription, { store, offers, observedAt, recordFacts: undefined });
    return;
  }
  // The return page: the payment that started this subscription, read after it succeeded.
  const payment = events.find(
    (e) => e.event === 'payment.succeeded' && e.subscriptionUid === subscription.subscriptionUid,
  );
  if (payment === undefined || Date.parse(payment.occurredAt) > observedAt.getTime()) return;
  await applyPaymentRead(
    {
      object: 'payment',
      paymentUid: payment.paymentUid as string,
      mode: 'HOSTED',
      status: 'SUCCEEDED',
      checkoutUrl: `https://checkout.example/c/${payment.paymentUid}`,
      productUid: 'prod_premium',
      offerUid: 'off_monthly',
      expiresAt: at(15),
      metadata,
      subscriberUid: subscription.subscriberUid,
      subscriptionUid: subscription.subscriptionUid,
    },
    {
      store,
      offers,
      now: () => observedAt,
      ...(read.kind === 'payment' ? { readSubscription: async () => subscription } : {}),
    },
  );
}

describe('the webhook handler: shuffled deliveries with return-page and subscription reads between them', () => {
  it('end in the state the webhooks give in order, for access and every field', async () => {
    await fc.assert(
      fc.asyncProperty(withReads, async ([inOrder, shuffled, reads]) => {
        const baseline = partnerApp();
        await deliver(baseline.handler, inOrder);
        const expected = await baseline.store.get('user_1', 'prod_premium');

        const app = partnerApp();
        for (const arrival of interleave(shuffled, reads)) {
          if ('event' in arrival) await deliver(app.handler, [arrival.event]);
          else await runRead(arrival.read, inOrder, app.store);
        }
        const actual = await app.store.get('user_1', 'prod_premium');
        expect(actual).toEqual(expected);
        expect(accessTimeline(actual)).toEqual(accessTimeline(expected));
      }),
      { numRuns: 400 },
    );
  });
});

describe('applyEvent with confirm: a same-instant tie is settled by what the service says', () => {
  const paid = paymentEvent('payment.succeeded', 0, 'off_monthly', {
    subscriptionUid: 'sub_1',
    currentPeriodEnd: at(30 * 1440),
  });
  const update = (subscriptionStatus: 'ACTIVE' | 'PRE_CANCELED') => ({
    event: 'subscription.updated',
    occurredAt: at(10),
    subscriptionUid: 'sub_1',
    subscriberUid: 'sbr_1',
    metadata,
    subscriptionStatus,
    cancelAt: subscriptionStatus === 'ACTIVE' ? null : at(30 * 1440),
  });
  const truth = (status: 'ACTIVE' | 'PRE_CANCELED'): Subscription => ({
    subscriptionUid: 'sub_1',
    status,
    productUid: 'prod_premium',
    offerUid: 'off_monthly',
    subscriberUid: 'sbr_1',
    currentPeriodEnd: at(30 * 1440),
    cancelAt: status === 'ACTIVE' ? null : at(30 * 1440),
  });

  it.each(['ACTIVE', 'PRE_CANCELED'] as const)(
    'the service says %s: so it ends, in either order',
    async (said) => {
      const outcomes = [];
      for (const order of [
        [paid, update('ACTIVE'), update('PRE_CANCELED')],
        [paid, update('PRE_CANCELED'), update('ACTIVE')],
      ]) {
        const store = memoryStore();
        const confirm = async () => truth(said);
        for (const event of order)
          await applyEvent(event, { store, offers, accountKeyOf: accountKeyResolver({}), confirm });
        outcomes.push(await store.get('user_1', 'prod_premium'));
      }
      expect(outcomes[0]).toEqual(outcomes[1]);
      expect(outcomes[0]?.status).toBe(said);
    },
  );

  it('a failing confirm leaves the tie rule to decide, and is handed back to be reported', async () => {
    const store = memoryStore();
    const failure = new Error('API down');
    const confirm = async () => Promise.reject(failure);
    const context = { store, offers, accountKeyOf: accountKeyResolver({}), confirm };
    await applyEvent(paid, context);
    await applyEvent(update('ACTIVE'), context);
    const applied = await applyEvent(update('PRE_CANCELED'), context);
    expect(applied).toMatchObject({
      outcome: 'applied',
      confirmError: failure,
      entitlement: { status: 'ACTIVE' },
    });
  });
});
