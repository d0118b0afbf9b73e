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
import { jsonReply } from '../http/reply.js';
import type { RouteHandler, Router } from '../http/router.js';
import { type ApiRoute, OPENAPI_DOCUMENT } from '../openapi/openapi-document.js';
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
  /** Told every answer of the API's operations (see StartSandboxOptions.onApiAnswer). */
  onApiAnswer: ((answer: ApiAnswer) => void) | undefined;
}

/** One answer of an operation of the service's API, as the emulator wrote it. */
export interface ApiAnswer extends ApiRoute {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The body as sent: JSON text. */
  body: string;
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
  const operations: Array<[ApiRoute['method'], string, Parameters<typeof withErrorEnvelope>[0]]> = [
    ['POST', '/oauth2/token', tokenRoute({ ...auth, review })],
    ['GET', '/v1/capabilities', capabilitiesRoute(auth)],
    ['POST', '/v1/payments', createPaymentRoute(paymentDeps)],
    ['GET', '/v1/payments/:paymentUid', getPaymentRoute(paymentDeps)],
    ['POST', '/v1/payments/:paymentUid/cancel', cancelPaymentRoute(paymentDeps)],
    ['GET', '/v1/subscriptions/:subscriptionUid', getSubscriptionRoute(subscriptionDeps)],
    ['POST', '/v1/subscriptions/:subscriptionUid/cancel', cancelSubscriptionRoute(subscriptionDeps)],
    ['POST', '/v1/subscriptions/:subscriptionUid/resume', resumeSubscriptionRoute(subscriptionDeps)],
  ];
  for (const [method, path, handler] of operations) {
    router.add(method, path, observed({ method, path }, withErrorEnvelope(handler), deps.onApiAnswer));
  }
  // The document the answers above keep to; no token needed, as for a service's published description.
  const openapi = jsonReply(200, OPENAPI_DOCUMENT, { 'cache-control': 'public, max-age=300' });
  router.add('GET', '/openapi.json', () => openapi);
}

function observed(
  route: ApiRoute,
  handler: RouteHandler,
  onApiAnswer: ApiRoutesDeps['onApiAnswer'],
): RouteHandler {
  if (onApiAnswer === undefined) return handler;
  return async (request) => {
    const reply = await handler(request);
    onApiAnswer({ ...route, status: reply.status, headers: reply.headers ?? {}, body: reply.body ?? '' });
    return reply;
  };
}
