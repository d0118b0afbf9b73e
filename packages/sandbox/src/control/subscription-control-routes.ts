import { z } from 'zod';
import { ApiError } from '../api/api-error.js';
import { apiRoute } from '../api/api-route.js';
import { successReply } from '../http/reply.js';
import type { Router } from '../http/router.js';
import { RENEWAL_OUTCOMES } from '../subscriptions/renewal-outcome.js';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine.js';
import { toSubscriptionControlView } from '../subscriptions/subscription-record.js';
import { readControlBody } from './read-control-body.js';

const renewalOutcomeBodySchema = z.strictObject({
  outcome: z.enum(RENEWAL_OUTCOMES),
  times: z.number().int().min(1).max(1000).optional(),
});

/**
 * GET /sandbox/subscriptions[?clientId=], GET /sandbox/subscriptions/{uid} (with the charges run so
 * far), and POST /sandbox/subscriptions/{uid}/renewal-outcome `{ outcome, times? }`, which forces
 * the answer of the next scheduled charges over the line's test number.
 */
export function addSubscriptionControlRoutes(router: Router, subscriptions: SubscriptionEngine): void {
  const findOrThrow = (uid: string | undefined) => {
    const subscription = subscriptions.find(uid ?? '');
    if (!subscription) throw new ApiError('SBX-404', `No subscription ${uid ?? ''}.`);
    return subscription;
  };
  router
    .add('GET', '/sandbox/subscriptions', (request) => {
      const clientId = request.url.searchParams.get('clientId');
      const listed = subscriptions
        .list()
        .filter((subscription) => clientId === null || subscription.clientId === clientId);
      return successReply(200, listed.map(toSubscriptionControlView));
    })
    .add(
      'GET',
      '/sandbox/subscriptions/:subscriptionUid',
      apiRoute((request) =>
        successReply(200, toSubscriptionControlView(findOrThrow(request.params.subscriptionUid))),
      ),
    )
    .add(
      'POST',
      '/sandbox/subscriptions/:subscriptionUid/renewal-outcome',
      apiRoute((request) => {
        const subscription = findOrThrow(request.params.subscriptionUid);
        const { outcome, times } = readControlBody(
          request,
          renewalOutcomeBodySchema,
          '{ "outcome": "success" | "insufficient_balance" | "declined", "times"?: n }',
        );
        subscriptions.setRenewalOutcome(subscription.subscriptionUid, outcome, times);
        return successReply(200, toSubscriptionControlView(subscription));
      }),
    );
}
