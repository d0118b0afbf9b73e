import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { apiRoute } from './api/api-route.js';
import { capabilitiesRoute } from './api/capabilities-route.js';
import { IdempotencyStore } from './api/idempotency-store.js';
import { cancelPaymentRoute, createPaymentRoute, getPaymentRoute } from './api/payments-routes.js';
import { RateLimiter } from './api/rate-limiter.js';
import {
  cancelSubscriptionRoute,
  getSubscriptionRoute,
  resumeSubscriptionRoute,
} from './api/subscriptions-routes.js';
import { tokenRoute } from './api/token-route.js';
import { TokenStore } from './api/token-store.js';
import { addCheckoutRoutes } from './checkout/checkout-routes.js';
import { CheckoutSessions } from './checkout/checkout-sessions.js';
import { createClock, type SandboxClock } from './clock/clock.js';
import { Catalog } from './config/catalog.js';
import { type ChaosSettings, type ChaosSettingsInput, chaosSettingsSchema } from './config/chaos-settings.js';
import type { SandboxConfig, SandboxConfigInput } from './config/config-schema.js';
import { resolveSandboxConfig, SandboxConfigError } from './config/load-config.js';
import { addChaosRoutes } from './control/chaos-routes.js';
import { addClockRoutes } from './control/clock-routes.js';
import { addControlRoutes } from './control/control-routes.js';
import { addSubscriptionControlRoutes } from './control/subscription-control-routes.js';
import { createRequestListener } from './http/request-listener.js';
import { Router } from './http/router.js';
import { SmsInbox, type SmsMessage } from './operator/sms-inbox.js';
import { PaymentService } from './payments/payment-service.js';
import type { RenewalOutcome } from './subscriptions/renewal-outcome.js';
import { SubscriptionEngine } from './subscriptions/subscription-engine.js';
import { type WebhookDelivery, WebhookOutbox } from './webhooks/webhook-outbox.js';

export interface StartSandboxOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on. Default 127.0.0.1: the sandbox is for this machine. */
  host?: string;
  /** A config object, a path to a JSON config file, or nothing for the default config. */
  config?: SandboxConfig | SandboxConfigInput | string;
  /** The clock everything runs on. Default: real time. Tests pass `createClock({ frozen: true })`. */
  clock?: SandboxClock;
  /** Posts every application's webhooks here, whatever the config says. */
  webhookUrl?: string;
  /** Used to post webhooks. Default: the global fetch. */
  fetch?: typeof fetch;
  /** Receives one line per notable thing (payment transitions, SMS, webhook attempts). Default: silent. */
  log?: (line: string) => void;
  /** The time written into Service-Signature. Default: wall time, whatever the sandbox clock says. */
  signatureTime?: () => Date;
  /**
   * Awaited while POST /v1/payments holds its Idempotency-Key, after the config's artificial latency.
   * Lets a test hold a request open to meet PAY-104.
   */
  holdPaymentCreation?: () => Promise<void>;
}

/** A running sandbox. */
export interface Sandbox {
  /** Base URL of the API: `${apiBaseUrl}/oauth2/token`, `${apiBaseUrl}/v1/payments`... */
  apiBaseUrl: string;
  /** Base URL of the checkout host; checkout URLs are `${checkoutBaseUrl}/c/{paymentUid}`. */
  checkoutBaseUrl: string;
  /** The first configured application's credentials (the demo application by default). */
  credentials: { clientId: string; clientSecret: string; webhookSecret: string };
  config: SandboxConfig;
  /** The clock everything runs on: `clock.now()`, `clock.advance(seconds)`, `clock.pending()`. */
  clock: SandboxClock;
  /**
   * Moves sandbox time forward (as `clock.advance` and `POST /sandbox/clock/advance` do): every
   * expiry, trial end, renewal, grace retry and webhook attempt that falls due runs, in time
   * order, and the promise resolves once they ran.
   *
   * @example
   * await sandbox.advanceClock(7 * 86_400); // the trial ends and converts
   */
  advanceClock(seconds: number): Promise<void>;
  /**
   * Forces the answer of a subscription's next `times` scheduled charges (every one from now on
   * without `times`), over its line's test number. Throws RangeError for an unknown subscription.
   */
  setRenewalOutcome(subscriptionUid: string, outcome: RenewalOutcome, times?: number): void;
  /** The delivery chaos settings in force. */
  chaos(): ChaosSettings;
  /** Replaces the delivery chaos settings (what is left out is off) and restarts its dice from the seed. */
  setChaos(settings: ChaosSettingsInput): ChaosSettings;
  /** Every event so far with its delivery attempts, oldest first. */
  webhooks(): readonly WebhookDelivery[];
  /** Points an application's webhooks (default: the first application's) at a URL, or at none. */
  setWebhookUrl(url: string | null, clientId?: string): void;
  /** Runs every task already due (first webhook attempts included) and waits for them. */
  deliverDue(): Promise<void>;
  /** SMS carried by the mock operator, newest first. */
  sms(filter?: { msisdn?: string; paymentUid?: string }): SmsMessage[];
  close(): Promise<void>;
}

const webhookUrlSchema = z.url({ protocol: /^https?$/ });

/**
 * Starts the sandbox: the service's API, its checkout host, a mock operator and signed webhook
 * delivery, on one local HTTP server.
 *
 * @example
 * const sandbox = await startSandbox({ port: 0, webhookUrl: 'http://127.0.0.1:3000/webhooks/dcb' });
 * const client = createClient({ baseUrl: sandbox.apiBaseUrl, ...sandbox.credentials });
 * // ...
 * await sandbox.close();
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const log = options.log ?? (() => {});
  let config = resolveSandboxConfig(options.config);
  if (options.webhookUrl !== undefined) {
    const url = options.webhookUrl;
    if (!webhookUrlSchema.safeParse(url).success) throw new SandboxConfigError(`Invalid webhook URL ${url}.`);
    config = {
      ...config,
      applications: config.applications.map((app) => ({ ...app, webhook: { ...app.webhook, url } })),
    };
  }
  const [first] = config.applications;
  if (!first) throw new SandboxConfigError('The config needs at least one application.');
  const clock =
    options.clock ??
    createClock({ onTaskError: (error, label) => log(`sandbox task "${label}" failed: ${String(error)}`) });
  const host = options.host ?? '127.0.0.1';
  const server = createServer();
  await listen(server, options.port ?? 0, host);
  const { port } = server.address() as AddressInfo;
  const origin = `http://${urlHost(host)}:${port}`;

  const catalog = new Catalog(config);
  const outbox = new WebhookOutbox({
    clock,
    catalog,
    retryDelaysSeconds: config.webhooks.retryDelaysSeconds,
    timeoutMs: config.webhooks.timeoutMs,
    fetch: options.fetch ?? globalThis.fetch,
    signatureTime: options.signatureTime ?? (() => new Date()),
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
  const sms = new SmsInbox(clock, log);
  const auth = { catalog, tokens: new TokenStore(clock), rateLimiter: new RateLimiter(clock) };
  const latencyMs = config.payments.createLatencyMs;
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
    .add('POST', '/oauth2/token', apiRoute(tokenRoute(auth)))
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
  addCheckoutRoutes(router, { catalog, clock, payments, sessions: new CheckoutSessions(), sms });
  addControlRoutes(router, { catalog, payments, outbox, sms, apiBaseUrl: origin });
  addClockRoutes(router, clock);
  addChaosRoutes(router, outbox);
  addSubscriptionControlRoutes(router, subscriptions);
  const listener = createRequestListener(router, log);
  server.on('request', (request, response) => void listener(request, response));

  return {
    apiBaseUrl: origin,
    checkoutBaseUrl: origin,
    credentials: {
      clientId: first.clientId,
      clientSecret: first.clientSecret,
      webhookSecret: first.webhook.secret,
    },
    config,
    clock,
    advanceClock: (seconds) => clock.advance(seconds),
    setRenewalOutcome: (subscriptionUid, outcome, times) => {
      if (!subscriptions.setRenewalOutcome(subscriptionUid, outcome, times)) {
        throw new RangeError(`Unknown subscription ${subscriptionUid}.`);
      }
    },
    chaos: () => outbox.chaosSettings(),
    setChaos: (input) => {
      const parsed = chaosSettingsSchema.safeParse(input);
      if (!parsed.success) throw new TypeError(`Invalid chaos settings:\n${z.prettifyError(parsed.error)}`);
      outbox.setChaos(parsed.data);
      return parsed.data;
    },
    webhooks: () => outbox.list(),
    setWebhookUrl: (url, clientId = first.clientId) => {
      if (url !== null && !webhookUrlSchema.safeParse(url).success)
        throw new TypeError(`Invalid webhook URL ${url}.`);
      outbox.setWebhookUrl(clientId, url);
    },
    deliverDue: () => clock.runDue(),
    sms: (filter) => sms.list(filter),
    close: async () => {
      outbox.close();
      clock.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
