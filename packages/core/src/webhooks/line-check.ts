import { newerFirst, renewingTwinsOf } from '../access/line-twins.js';
import { applySubscriptionRead } from '../apply/apply-subscription-read.js';
import { DcbError, isDcbError } from '../errors/dcb-error.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { Subscription } from '../schemas/subscription.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { isLineStore } from '../store/line-store.js';
import type { WebhookContext } from './webhook-context.js';

/**
 * `retry`: the newer subscription could not be cancelled: the event must come again. `notify`: the
 * `linePaysTwice` listener, to run once what the check wrote is committed.
 */
export type LineCheckResult =
  | { outcome: 'ok'; notify?: (() => Promise<void>) | undefined }
  | { outcome: 'retry' };

const OK: LineCheckResult = Object.freeze({ outcome: 'ok' });

/** The read a line check needs, with what it reads: the entitlements the payment's line holds. */
export interface LineRead {
  entitlement: Entitlement;
  subscriberUid: string;
  line: Promise<Entitlement[]>;
}

/**
 * Starts the read of a recorded payment's line, when it has one to check; none otherwise (not a
 * subscription's payment, or a store that cannot answer by line). Started as soon as the payment
 * is written, so that the work the handler does before `checkLine` overlaps its round trip.
 */
export function readLine(
  context: WebhookContext,
  event: WebhookEvent,
  entitlement: Entitlement | undefined,
): LineRead | undefined {
  const { store } = context;
  if (event.event !== 'payment.succeeded' || !isLineStore(store)) return undefined;
  const subscriberUid = entitlement?.subscriberUid;
  if (entitlement === undefined || !subscriberUid || entitlement.type !== 'SUBSCRIPTION') return undefined;
  const line = store.listBySubscriberUid(subscriberUid);
  // Awaited by checkLine; a failure before then must not go unhandled.
  line.catch(() => {});
  return { entitlement, subscriberUid, line };
}

/**
 * After a payment is recorded (`read` started by readLine): does its line now hold a subscription
 * of the same product, that will renew, under another account? Then the line pays twice: recorded
 * in every such account's history, logged, handed to `onError` (and `on.linePaysTwice`, by
 * `notify`), and with `cancel-newer` the newer subscription cancelled at period end.
 */
export async function checkLine(
  context: WebhookContext,
  event: WebhookEvent,
  eventKey: string,
  read: LineRead | undefined,
): Promise<LineCheckResult> {
  if (read === undefined) return OK;
  const { logger } = context;
  const { entitlement, subscriberUid } = read;
  const line = await read.line;
  const own =
    line.find(
      (held) => held.accountKey === entitlement.accountKey && held.productUid === entitlement.productUid,
    ) ?? entitlement;
  const twins = renewingTwinsOf(own, line);
  if (twins.length === 0) return OK;
  const newestFirst = [own, ...twins].sort(newerFirst);
  const oldestFirst = [...newestFirst].reverse();
  const newer = newestFirst[0] as Entitlement;
  const found = {
    subscriberUid,
    productUid: own.productUid,
    subscriptionUids: oldestFirst.map((held) => held.subscriptionUid ?? ''),
    accountKeys: oldestFirst.map((held) => held.accountKey),
    newer: { accountKey: newer.accountKey, subscriptionUid: newer.subscriptionUid ?? '' },
    policy: context.line.policy,
  };
  for (const held of oldestFirst) {
    await context.recordHistory?.({
      accountKey: held.accountKey,
      productUid: held.productUid,
      source: 'webhook',
      decision: 'line_pays_twice',
      eventName: event.event,
      eventKey,
      occurredAt: event.occurredAt,
      paymentUid: event.paymentUid ?? null,
      subscriptionUid: held.subscriptionUid,
      statusBefore: held.status,
      statusAfter: held.status,
      unitsBefore: null,
      unitsAfter: null,
      subscriberUid,
    });
  }
  const message = `dcbkit: line ${subscriberUid} holds ${oldestFirst.length} live subscriptions of ${own.productUid} (accounts ${found.accountKeys.join(', ')}): it is charged for each.`;
  logger.warn?.({ ...found, event: event.event }, message);
  context.reportError(
    new DcbError('line_pays_twice', message, { details: { ...found } }),
    { source: 'webhook', event: event.event },
    message,
    { log: false },
  );
  let canceled: Subscription | undefined;
  if (found.policy === 'cancel-newer') {
    canceled = await cancelNewer(context, found.newer.subscriptionUid);
    if (canceled === undefined) return { outcome: 'retry' };
  }
  const listener = context.on.linePaysTwice;
  return {
    outcome: 'ok',
    notify: listener && (async () => listener({ ...found, ...(canceled ? { canceled } : {}), event })),
  };
}

/**
 * Cancels the newer subscription at period end and applies the API's answer to its entitlement.
 * A cancel that fails is checked by a read (another instance may have cancelled it a moment
 * before); still renewing, the failure is reported and undefined returned: the event comes again.
 */
async function cancelNewer(
  context: WebhookContext,
  subscriptionUid: string,
): Promise<Subscription | undefined> {
  const { subscriptions } = context.line;
  if (subscriptions === undefined) return undefined;
  const observedAt = context.now();
  let subscription: Subscription;
  try {
    subscription = await subscriptions.cancel(subscriptionUid, { when: 'PERIOD_END' });
  } catch (error) {
    const read = await subscriptions.retrieve(subscriptionUid).catch(() => undefined);
    if (
      read === undefined ||
      read.status === 'ACTIVE' ||
      read.status === 'TRIALING' ||
      read.status === 'IN_GRACE'
    ) {
      const code = isDcbError(error) ? error.code : 'cancel_failed';
      context.reportError(
        new DcbError(
          'line_cancel_failed',
          `dcbkit: cancelling ${subscriptionUid} at period end failed (${code}).`,
          {
            cause: error,
          },
        ),
        { source: 'webhook', event: 'payment.succeeded' },
        `dcbkit: linePolicy 'cancel-newer' could not cancel ${subscriptionUid} at period end (${code}); answered 503 so the service retries the event.`,
      );
      return undefined;
    }
    subscription = read;
  }
  await applySubscriptionRead(subscription, {
    store: context.store,
    offers: context.apply.offers,
    observedAt,
    now: context.now,
    recordHistory: context.recordHistory,
    recordFacts: context.recordFacts,
  });
  return subscription;
}
