import {
  type Subscription,
  type SubscriptionCancelRequest,
  subscriptionCancelRequestSchema,
  subscriptionSchema,
} from '../schemas/subscription.js';
import { checkInput, checkUid } from './check-input.js';
import { apiRequest, envelopeData, JSON_CONTENT, type SendAuthenticated } from './resource-request.js';

export interface SubscriptionsApi {
  /** `GET /v1/subscriptions/{subscriptionUid}`. */
  retrieve(subscriptionUid: string): Promise<Subscription>;
  /**
   * `POST /v1/subscriptions/{subscriptionUid}/cancel`. `PERIOD_END`: access lasts until `cancelAt`
   * (status `PRE_CANCELED`); `NOW`: access ends at once.
   *
   * @example
   * const subscription = await client.subscriptions.cancel(uid, { when: 'PERIOD_END' });
   * showAccessUntil(subscription.cancelAt);
   */
  cancel(subscriptionUid: string, request: SubscriptionCancelRequest): Promise<Subscription>;
  /** `POST /v1/subscriptions/{subscriptionUid}/resume`: withdraws a `PERIOD_END` cancellation. */
  resume(subscriptionUid: string): Promise<Subscription>;
}

const subscriptionData = envelopeData(subscriptionSchema);

export function createSubscriptionsApi(send: SendAuthenticated): SubscriptionsApi {
  return {
    async retrieve(subscriptionUid) {
      const uid = checkUid(subscriptionUid, {
        method: 'GET',
        path: '/v1/subscriptions/{subscriptionUid}',
        name: 'subscriptionUid',
      });
      return send(
        apiRequest(
          { method: 'GET', target: `/v1/subscriptions/${encodeURIComponent(uid)}` },
          subscriptionData,
        ),
      );
    },
    async cancel(subscriptionUid, request) {
      const where = { method: 'POST', path: '/v1/subscriptions/{subscriptionUid}/cancel' };
      const uid = checkUid(subscriptionUid, { ...where, name: 'subscriptionUid' });
      const body = checkInput(subscriptionCancelRequestSchema, request, { ...where, name: '' });
      return send(
        apiRequest(
          {
            method: 'POST',
            target: `/v1/subscriptions/${encodeURIComponent(uid)}/cancel`,
            headers: { ...JSON_CONTENT },
            body: JSON.stringify(body),
          },
          subscriptionData,
        ),
      );
    },
    async resume(subscriptionUid) {
      const uid = checkUid(subscriptionUid, {
        method: 'POST',
        path: '/v1/subscriptions/{subscriptionUid}/resume',
        name: 'subscriptionUid',
      });
      return send(
        apiRequest(
          { method: 'POST', target: `/v1/subscriptions/${encodeURIComponent(uid)}/resume` },
          subscriptionData,
        ),
      );
    },
  };
}
