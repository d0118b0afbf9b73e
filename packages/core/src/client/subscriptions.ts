import {
  type Subscription,
  type SubscriptionCancelRequest,
  subscriptionCancelRequestSchema,
  subscriptionSchema,
} from '../schemas/subscription.js';
import { checkInput } from './check-input.js';
import { checkRequestOptions, type RequestOptions } from './client-options.js';
import {
  apiRequest,
  envelopeData,
  JSON_CONTENT,
  resourceTarget,
  type SendAuthenticated,
} from './resource-request.js';

export interface SubscriptionsApi {
  /** `GET /v1/subscriptions/{subscriptionUid}`. */
  retrieve(subscriptionUid: string, options?: RequestOptions): Promise<Subscription>;
  /**
   * `POST /v1/subscriptions/{subscriptionUid}/cancel`. `PERIOD_END`: access lasts until `cancelAt`
   * (status `PRE_CANCELED`); `NOW`: access ends at once.
   *
   * @example
   * const subscription = await client.subscriptions.cancel(uid, { when: 'PERIOD_END' });
   * showAccessUntil(subscription.cancelAt);
   */
  cancel(
    subscriptionUid: string,
    request: SubscriptionCancelRequest,
    options?: RequestOptions,
  ): Promise<Subscription>;
  /** `POST /v1/subscriptions/{subscriptionUid}/resume`: withdraws a `PERIOD_END` cancellation. */
  resume(subscriptionUid: string, options?: RequestOptions): Promise<Subscription>;
}

const subscriptionData = /* @__PURE__ */ envelopeData(subscriptionSchema);

export function createSubscriptionsApi(send: SendAuthenticated): SubscriptionsApi {
  return {
    async retrieve(subscriptionUid, options) {
      const target = resourceTarget('GET', '/v1/subscriptions/{subscriptionUid}', subscriptionUid);
      return send(apiRequest({ method: 'GET', target }, subscriptionData), checkRequestOptions(options));
    },
    async cancel(subscriptionUid, request, options) {
      const path = '/v1/subscriptions/{subscriptionUid}/cancel';
      const target = resourceTarget('POST', path, subscriptionUid);
      const body = checkInput(subscriptionCancelRequestSchema, request, { method: 'POST', path, name: '' });
      return send(
        apiRequest(
          { method: 'POST', target, headers: { ...JSON_CONTENT }, body: JSON.stringify(body) },
          subscriptionData,
        ),
        checkRequestOptions(options),
      );
    },
    async resume(subscriptionUid, options) {
      const target = resourceTarget('POST', '/v1/subscriptions/{subscriptionUid}/resume', subscriptionUid);
      return send(apiRequest({ method: 'POST', target }, subscriptionData), checkRequestOptions(options));
    },
  };
}
