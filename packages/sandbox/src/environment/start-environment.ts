import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CheckoutFlow } from '../checkout/checkout-flow.js';
import { addCheckoutRoutes } from '../checkout/checkout-routes.js';
import type { SandboxClock } from '../clock/clock.js';
import { Catalog } from '../config/catalog.js';
import type { EnvironmentConfig, EnvironmentName } from '../config/environment-config.js';
import { addControlRoutes } from '../control/control-routes.js';
import { type ClientSecret, GoLiveReview } from '../go-live/go-live-review.js';
import { listen, urlHost } from '../http/listen.js';
import { createRequestListener } from '../http/request-listener.js';
import { Router } from '../http/router.js';
import type { SmsInbox } from '../operator/sms-inbox.js';
import { PaymentService } from '../payments/payment-service.js';
import { SubscriptionEngine } from '../subscriptions/subscription-engine.js';
import { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { type ApiAnswer, addApiRoutes } from './api-routes.js';

export interface StartEnvironmentOptions {
  name: EnvironmentName;
  /** This environment's config (see configForEnvironment). */
  config: EnvironmentConfig;
  /** The applications live at start, with their secrets (see initiallyLive). */
  live: Iterable<ClientSecret>;
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
  /** Told every answer of the API's operations (see StartSandboxOptions.onApiAnswer). */
  onApiAnswer?: ((answer: ApiAnswer) => void) | undefined;
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
  const services = createServices(options, origin, log);
  const { catalog, review, outbox, subscriptions, payments } = services;

  const router = new Router();
  addApiRoutes(router, {
    ...services,
    name,
    clock,
    holdPaymentCreation: options.holdPaymentCreation,
    onApiAnswer: options.onApiAnswer,
  });
  const policy = options.config.consentPolicy;
  addCheckoutRoutes(router, {
    payments,
    flow: new CheckoutFlow({ clock, payments, sms, policy }),
    shortCode: policy.moSms.shortCode,
    pinLength: policy.pin.length,
    environment: name,
  });
  addControlRoutes(router, { ...services, environment: name, apiBaseUrl: origin, sms, clock });
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

/** What the environment's routes work on: its catalog, go-live review, outbox, subscriptions, payments. */
function createServices(options: StartEnvironmentOptions, origin: string, log: (line: string) => void) {
  const { clock } = options;
  const catalog = new Catalog(options.config);
  const review = new GoLiveReview(options.live);
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
  return { catalog, review, outbox, subscriptions, payments };
}
