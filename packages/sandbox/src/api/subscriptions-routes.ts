import { type Reply, successReply } from '../http/reply.js';
import type { RouteRequest } from '../http/router.js';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine.js';
import { toSubscriptionView } from '../subscriptions/subscription-record.js';
import { ApiError } from './api-error.js';
import { type AuthenticationDeps, authenticate } from './authenticate.js';

/** GET /v1/subscriptions/{subscriptionUid}. Throws SUB-101 for an unknown (or another application's) one. */
export function getSubscriptionRoute(deps: AuthenticationDeps & { subscriptions: SubscriptionEngine }) {
  return (request: RouteRequest): Reply => {
    const application = authenticate(request, deps, 'subscriptions');
    const uid = request.params.subscriptionUid ?? '';
    const subscription = deps.subscriptions.get(application.clientId, uid);
    if (!subscription) throw new ApiError('SUB-101', `Subscription ${uid} not found.`);
    return successReply(200, toSubscriptionView(subscription));
  };
}
