import { type SubscriptionCancelRequest, subscriptionCancelRequestSchema } from '@dcbkit/core/schemas';
import { type Reply, successReply } from '../http/reply.js';
import type { RouteRequest } from '../http/router.js';
import { toSubscriptionView } from '../records/subscription-record.js';
import { ApiError } from '../shared/api-error.js';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine.js';
import { type AuthenticationDeps, authenticate } from './authenticate.js';
import { readJsonBody } from './read-json-body.js';

export interface SubscriptionRoutesDeps extends AuthenticationDeps {
  subscriptions: SubscriptionEngine;
}

/** GET /v1/subscriptions/{subscriptionUid}. Throws SUB-101 for an unknown (or another application's) one. */
export function getSubscriptionRoute(deps: SubscriptionRoutesDeps) {
  return (request: RouteRequest): Reply => {
    const application = authenticate(request, deps, 'subscriptions');
    const uid = request.params.subscriptionUid ?? '';
    const subscription = deps.subscriptions.get(application.clientId, uid);
    if (!subscription) throw new ApiError('SUB-101', `Subscription ${uid} not found.`);
    return successReply(200, toSubscriptionView(subscription));
  };
}

/** POST /v1/subscriptions/{subscriptionUid}/cancel `{ when: NOW | PERIOD_END }`. Throws VAL-*, SUB-101, SUB-104. */
export function cancelSubscriptionRoute(deps: SubscriptionRoutesDeps) {
  return (request: RouteRequest): Reply => {
    const application = authenticate(request, deps, 'subscriptions');
    const { when } = readCancelRequest(request);
    const subscription = deps.subscriptions.cancel(
      application.clientId,
      request.params.subscriptionUid ?? '',
      when,
    );
    return successReply(200, toSubscriptionView(subscription));
  };
}

/** POST /v1/subscriptions/{subscriptionUid}/resume; no body. Throws SUB-101, SUB-105. */
export function resumeSubscriptionRoute(deps: SubscriptionRoutesDeps) {
  return (request: RouteRequest): Reply => {
    const application = authenticate(request, deps, 'subscriptions');
    const subscription = deps.subscriptions.resume(
      application.clientId,
      request.params.subscriptionUid ?? '',
    );
    return successReply(200, toSubscriptionView(subscription));
  };
}

/** The cancel body: required, `when` required, no other property (VAL-001, VAL-002, VAL-006). */
function readCancelRequest(request: RouteRequest): SubscriptionCancelRequest {
  if (request.body.length === 0) {
    throw new ApiError('VAL-001', 'A body { "when": "NOW" | "PERIOD_END" } is required.');
  }
  const parsed = subscriptionCancelRequestSchema.safeParse(readJsonBody(request), { reportInput: true });
  if (parsed.success) return parsed.data;
  const { issues } = parsed.error;
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown?.code === 'unrecognized_keys') {
    throw new ApiError('VAL-006', `Unknown property ${unknown.keys.join(', ')}; only "when" is allowed.`);
  }
  if (issues.some((issue) => issue.path[0] === 'when' && issue.input === undefined)) {
    throw new ApiError('VAL-001', 'when is required.');
  }
  throw new ApiError('VAL-002', 'The body must be { "when": "NOW" | "PERIOD_END" }.');
}
