import { z } from 'zod';
import { successReply } from '../http/reply.js';
import type { RouteHandler } from '../http/router.js';
import { type SubscriptionRecord, toSubscriptionControlView } from '../records/subscription-record.js';
import { ApiError } from '../shared/api-error.js';
import { RENEWAL_OUTCOMES } from '../subscriptions/renewal-outcome.js';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine.js';
import type { ControlDeps } from './control-deps.js';
import { readControlBody } from './read-control-body.js';

const renewalOutcomeBodySchema = z.strictObject({
  outcome: z.enum(RENEWAL_OUTCOMES),
  times: z.number().int().min(1).max(1000).optional(),
});

/** GET /sandbox/subscriptions[?clientId=]: every subscription, with the charges run so far. */
export function listSubscriptions({ subscriptions }: ControlDeps): RouteHandler {
  return (request) => {
    const clientId = request.url.searchParams.get('clientId');
    const listed = subscriptions
      .list()
      .filter((subscription) => clientId === null || subscription.clientId === clientId);
    return successReply(200, listed.map(toSubscriptionControlView));
  };
}

/** GET /sandbox/subscriptions/{subscriptionUid}: one subscription, with the charges run so far. */
export function readSubscription({ subscriptions }: ControlDeps): RouteHandler {
  return (request) =>
    successReply(
      200,
      toSubscriptionControlView(subscriptionOrThrow(subscriptions, request.params.subscriptionUid)),
    );
}

/**
 * POST /sandbox/subscriptions/{subscriptionUid}/renewal-outcome `{ outcome, times? }`: forces the
 * answer of the next scheduled charges over the line's test number.
 */
export function setRenewalOutcome({ subscriptions }: ControlDeps): RouteHandler {
  return (request) => {
    const subscription = subscriptionOrThrow(subscriptions, request.params.subscriptionUid);
    const { outcome, times } = readControlBody(
      request,
      renewalOutcomeBodySchema,
      '{ "outcome": "success" | "insufficient_balance" | "declined", "times"?: n }',
    );
    subscriptions.setRenewalOutcome(subscription.subscriptionUid, outcome, times);
    return successReply(200, toSubscriptionControlView(subscription));
  };
}

function subscriptionOrThrow(subscriptions: SubscriptionEngine, uid: string | undefined): SubscriptionRecord {
  const subscription = subscriptions.find(uid ?? '');
  if (!subscription) throw new ApiError('SBX-404', `No subscription ${uid ?? ''}.`);
  return subscription;
}
