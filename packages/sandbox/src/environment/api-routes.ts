import { setTimeout as sleep } from 'node:timers/promises';
import { capabilitiesRoute } from '../api/capabilities-route.js';
import { IdempotencyStore } from '../api/idempotency-store.js';
import { cancelPaymentRoute, createPaymentRoute, getPaymentRoute } from '../api/payments-routes.js';
import { RateLimiter } from '../api/rate-limiter.js';
import {
  cancelSubscriptionRoute,
  getSubscriptionRoute,
  resumeSubscriptionRoute,
} from '../api/subscriptions-routes.js';
import { tokenRoute } from '../api/token-route.js';
import { TokenStore } from '../api/token-store.js';
import type { SandboxClock } from '../clock/clock.js';
import type { Catalog } from '../config/catalog.js';
import type { EnvironmentName } from '../config/environment-config.js';
import type { GoLiveReview } from '../go-live/go-live-review.js';
import { withErrorEnvelope } from '../http/error-envelope.js';
import type { Router } from '../http/router.js';
import type { PaymentService } from '../payments/payment-service.js';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine.js';

export interface ApiRoutesDeps {
  name: EnvironmentName;
  clock: SandboxClock;
  catalog: Catalog;
  review: GoLiveReview;
  payments: PaymentService;
  subscriptions: SubscriptionEngine;
  holdPaymentCreation: (() => Promise<void>) | undefined;
}

/** The service's API of one environment: token, capabilities, payments, subscriptions. */
export function addApiRoutes(router: Router, deps: ApiRoutesDeps): void {
  const { name, clock, catalog, review, payments, subscriptions } = deps;
  const auth = { catalog, tokens: new TokenStore(clock, name), rateLimiter: new RateLimiter(clock) };
  const latencyMs = catalog.config.payments.createLatencyMs;
  const paymentDeps = {
    ...auth,
    payments,
    idempotency: new IdempotencyStore(clock),
    whileCreating: async () => {
      if (latencyMs > 0) await sleep(latencyMs);
      await deps.holdPaymentCreation?.();
    },
  };
  const subscriptionDeps = { ...auth, subscriptions };
  router
    .add('POST', '/oauth2/token', withErrorEnvelope(tokenRoute({ ...auth, review })))
    .add('GET', '/v1/capabilities', withErrorEnvelope(capabilitiesRoute(auth)))
    .add('POST', '/v1/payments', withErrorEnvelope(createPaymentRoute(paymentDeps)))
    .add('GET', '/v1/payments/:paymentUid', withErrorEnvelope(getPaymentRoute(paymentDeps)))
    .add('POST', '/v1/payments/:paymentUid/cancel', withErrorEnvelope(cancelPaymentRoute(paymentDeps)))
    .add(
      'GET',
      '/v1/subscriptions/:subscriptionUid',
      withErrorEnvelope(getSubscriptionRoute(subscriptionDeps)),
    )
    .add(
      'POST',
      '/v1/subscriptions/:subscriptionUid/cancel',
      withErrorEnvelope(cancelSubscriptionRoute(subscriptionDeps)),
    )
    .add(
      'POST',
      '/v1/subscriptions/:subscriptionUid/resume',
      withErrorEnvelope(resumeSubscriptionRoute(subscriptionDeps)),
    );
}
