import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiRoute } from '../api/api-route.js';
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
import { addCheckoutRoutes } from '../checkout/checkout-routes.js';
import { CheckoutSessions } from '../checkout/checkout-sessions.js';
import type { SandboxClock } from '../clock/clock.js';
import { Catalog } from '../config/catalog.js';
import type { SandboxConfig } from '../config/config-schema.js';
import { addChaosRoutes } from '../control/chaos-routes.js';
import { addClockRoutes } from '../control/clock-routes.js';
import { addControlRoutes } from '../control/control-routes.js';
import { addFaviconRoute } from '../control/favicon-route.js';
import { addSubscriptionControlRoutes } from '../control/subscription-control-routes.js';
import { createRequestListener } from '../http/request-listener.js';
import { Router } from '../http/router.js';
import type { SmsInbox } from '../operator/sms-inbox.js';
import { PaymentService } from '../payments/payment-service.js';
import { SubscriptionEngine } from '../subscriptions/subscription-engine.js';
import { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { EnvironmentName } from './environment-config.js';
import { GoLiveReview } from './go-live-review.js';
import { SandboxPortInUseError } from './port-in-use-error.js';

export interface StartEnvironmentOptions {
  name: EnvironmentName;
  /** This environment's config (see configForEnvironment). */
  config: SandboxConfig;
  /** Client IDs that passed the go-live review. */
  approved: Iterable<string>;
  /** Shared by both environments: one sandbox time. */
  clock: SandboxClock;
  /** Shared by both environments: the mock operator carries every SMS. */
  sms: SmsInbox;
  host: string;
  port: number;
  fetch: typeof fetch;
  signatureTime: () => Date;
  log: (line: string) => void;
  holdPaymentCreation: (() => Promise<void>) | undefined;
  /** Told after every request, so a state file can be saved. */
  onRequest?: () => void;
  /** Required on the control endpoints when set (see controlAccess). */
  controlToken?: string | undefined;
}

/** One environment of the service on its own listener: API, checkout host and control endpoints. */
export interface RunningEnvironment {
  name: EnvironmentName;
  /** `http://127.0.0.1:port`: the environment's API base and checkout host. */
  origin: string;
  catalog: Catalog;
  payments: PaymentService;
  subscriptions: SubscriptionEngine;
  outbox: WebhookOutbox;
  review: GoLiveReview;
  close(): Promise<void>;
}

/** Listens on its own port, so each environment has its own API base URL and checkout host. */
export async function startEnvironment(options: StartEnvironmentOptions): Promise<RunningEnvironment> {
  const { name, clock, sms } = options;
  const log = name === 'sandbox' ? options.log : (line: string) => options.log(`[production] ${line}`);
  const server = createServer();
  await listen(server, options.port, options.host);
  const { port } = server.address() as AddressInfo;
  const origin = `http://${urlHost(options.host)}:${port}`;

  const catalog = new Catalog(options.config);
  const review = new GoLiveReview(options.approved);
  const outbox = new WebhookOutbox({
    clock,
    catalog,
    retryDelaysSeconds: options.config.webhooks.retryDelaysSeconds,
    timeoutMs: options.config.webhooks.timeoutMs,
    fetch: options.fetch,
    signatureTime: options.signatureTime,
    log,
  });
  const subscriptions = new SubscriptionEngine({ clock, catalog, outbox, log });
  const payments = new PaymentService({
    catalog,
    clock,
    outbox,
    subscriptions,
    checkoutBaseUrl: origin,
    log,
  });
  const auth = { catalog, tokens: new TokenStore(clock, name), rateLimiter: new RateLimiter(clock) };
  const latencyMs = options.config.payments.createLatencyMs;
  const paymentDeps = {
    ...auth,
    payments,
    idempotency: new IdempotencyStore(clock),
    whileCreating: async () => {
      if (latencyMs > 0) await sleep(latencyMs);
      await options.holdPaymentCreation?.();
    },
  };
  const subscriptionDeps = { ...auth, subscriptions };

  const router = new Router()
    .add('POST', '/oauth2/token', apiRoute(tokenRoute({ ...auth, review })))
    .add('GET', '/v1/capabilities', apiRoute(capabilitiesRoute(auth)))
    .add('POST', '/v1/payments', apiRoute(createPaymentRoute(paymentDeps)))
    .add('GET', '/v1/payments/:paymentUid', apiRoute(getPaymentRoute(paymentDeps)))
    .add('POST', '/v1/payments/:paymentUid/cancel', apiRoute(cancelPaymentRoute(paymentDeps)))
    .add('GET', '/v1/subscriptions/:subscriptionUid', apiRoute(getSubscriptionRoute(subscriptionDeps)))
    .add(
      'POST',
      '/v1/subscriptions/:subscriptionUid/cancel',
      apiRoute(cancelSubscriptionRoute(subscriptionDeps)),
    )
    .add(
      'POST',
      '/v1/subscriptions/:subscriptionUid/resume',
      apiRoute(resumeSubscriptionRoute(subscriptionDeps)),
    );
  addCheckoutRoutes(router, {
    catalog,
    clock,
    payments,
    sessions: new CheckoutSessions(),
    sms,
    environment: name,
  });
  addControlRoutes(router, { catalog, payments, outbox, sms, review, environment: name, apiBaseUrl: origin });
  addClockRoutes(router, clock);
  addChaosRoutes(router, outbox);
  addSubscriptionControlRoutes(router, subscriptions);
  addFaviconRoute(router);
  const listener = createRequestListener(router, log, options.controlToken);
  server.on('request', (request, response) => {
    void listener(request, response).finally(() => options.onRequest?.());
  });

  return {
    name,
    origin,
    catalog,
    payments,
    subscriptions,
    outbox,
    review,
    close: async () => {
      outbox.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new SandboxPortInUseError(host, port, { cause: error }) : error);
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
