import { z } from 'zod';
import { createClock, type SandboxClock } from '../clock/clock.js';
import {
  type ChaosSettings,
  type ChaosSettingsInput,
  chaosSettingsSchema,
} from '../config/chaos-settings.js';
import type { SandboxConfig, SandboxConfigInput } from '../config/config-schema.js';
import {
  CLIENT_ID_PREFIX,
  configForEnvironment,
  type EnvironmentConfig,
  initiallyLive,
} from '../config/environment-config.js';
import { resolveSandboxConfig } from '../config/load-config.js';
import { SandboxConfigError } from '../config/sandbox-config-error.js';
import { type RunningEnvironment, startEnvironment } from '../environment/start-environment.js';
import { SmsInbox, type SmsMessage } from '../operator/sms-inbox.js';
import { SandboxError } from '../shared/sandbox-error.js';
import { StatePersistence } from '../state/state-persistence.js';
import type { RenewalOutcome } from '../subscriptions/renewal-outcome.js';
import type { WebhookDelivery } from '../webhooks/delivery-record.js';
import {
  type EnvironmentCredentials,
  productionEnvironmentView,
  type SandboxProductionEnvironment,
  type SandboxTestEnvironment,
  sandboxEnvironmentView,
  webhookUrlSchema,
} from './environment-view.js';

export interface StartSandboxOptions {
  /** Port of the sandbox environment; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on. Default 127.0.0.1: the sandbox is for this machine. */
  host?: string;
  /**
   * Required on the control endpoints (`/sandbox/…`, which show the secrets and the PINs and can
   * redirect webhooks) when set. Listening beyond loopback without one is refused: anyone on the
   * network could otherwise read the webhook secret.
   */
  controlToken?: string;
  /** A config object, a path to a JSON config file, or nothing for the default config. */
  config?: SandboxConfig | SandboxConfigInput | string;
  /** The clock everything runs on. Default: real time. Tests pass `createClock({ frozen: true })`. */
  clock?: SandboxClock;
  /** Posts every application's sandbox-environment webhooks here, whatever the config says. */
  webhookUrl?: string;
  /** The emulated production environment, on a listener of its own. */
  production?: {
    /** Its port. Default: 0 (a free one) when `port` is 0, else `port + 1`. */
    port?: number;
    /** Posts every application's production webhooks here, whatever the config says. */
    webhookUrl?: string;
  };
  /**
   * A JSON file that keeps applications' go-live approvals, payments, subscriptions, the clock and
   * the webhook outbox across restarts: loaded at start when it exists, rewritten atomically (a
   * temporary file, then a rename) after every change. Default: state lives in memory only.
   */
  statePath?: string;
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

/** A running sandbox: both environments, one clock, one mock operator. */
export interface Sandbox {
  /** The sandbox environment's API base URL (`environments.sandbox.apiBaseUrl`). */
  apiBaseUrl: string;
  /** The sandbox environment's checkout host (`environments.sandbox.checkoutBaseUrl`). */
  checkoutBaseUrl: string;
  /** The first application's sandbox credentials (the demo application by default). */
  credentials: EnvironmentCredentials;
  /**
   * The sandbox environment and the emulated production environment, each on its own base URL.
   * Production credentials come from `environments.production.approve()`, once.
   */
  environments: Readonly<{ sandbox: SandboxTestEnvironment; production: SandboxProductionEnvironment }>;
  /** The config in use, as given (with `webhookUrl` applied to the sandbox environment's applications). */
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
   * without `times`), over its line's test number. Throws SandboxError `unknown_subscription`.
   */
  setRenewalOutcome(subscriptionUid: string, outcome: RenewalOutcome, times?: number): void;
  /** The delivery chaos settings in force. */
  chaos(): ChaosSettings;
  /**
   * Replaces the delivery chaos settings of both environments and restarts their dice from the
   * seed. Throws SandboxError `invalid_chaos_settings`.
   */
  setChaos(settings: ChaosSettingsInput): ChaosSettings;
  /** The sandbox environment's events with their delivery attempts, oldest first. */
  webhooks(): readonly WebhookDelivery[];
  /**
   * Posts one of the sandbox environment's events once more, now (as the partner console's replay
   * does): a 2xx answer marks it DELIVERED. Resolves with the event and its attempts. Throws
   * SandboxError `unknown_webhook_event` or `no_webhook_url`.
   *
   * @example
   * for (const event of sandbox.webhooks().filter((e) => e.status === 'DEAD_LETTERED')) {
   *   await sandbox.replayWebhook(event.id);
   * }
   */
  replayWebhook(id: string): Promise<WebhookDelivery>;
  /**
   * Points an application's webhooks at a URL, or at none: a `svc_live_` client ID in production,
   * any other in the sandbox environment (default: the first application's sandbox webhooks).
   */
  setWebhookUrl(url: string | null, clientId?: string): void;
  /** Runs every task already due (first webhook attempts included) and waits for them. */
  deliverDue(): Promise<void>;
  /** SMS carried by the mock operator in either environment, newest first. */
  sms(filter?: { msisdn?: string; paymentUid?: string }): SmsMessage[];
  close(): Promise<void>;
}

/** Sets every application's webhook URL of one environment. Throws SandboxConfigError for a bad URL. */
function withWebhookUrl<Config extends SandboxConfig | EnvironmentConfig>(
  config: Config,
  url: string | undefined,
): Config {
  if (url === undefined) return config;
  if (!webhookUrlSchema.safeParse(url).success) {
    throw new SandboxConfigError('invalid_webhook_url', `Invalid webhook URL ${url}.`);
  }
  return {
    ...config,
    applications: config.applications.map((app) => ({ ...app, webhook: { ...app.webhook, url } })),
  };
}

/**
 * Starts the sandbox: the service's API, its checkout host, a mock operator and signed webhook
 * delivery, for the sandbox environment and an emulated production environment, each on its own
 * local listener.
 *
 * @example
 * const sandbox = await startSandbox({ port: 0, webhookUrl: 'http://127.0.0.1:3000/webhooks/dcb' });
 * const client = createClient({ environment: 'sandbox', baseUrl: sandbox.apiBaseUrl, ...sandbox.credentials });
 * // ...
 * await sandbox.close();
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const log = options.log ?? (() => {});
  const config = resolveSandboxConfig(options.config);
  if (config.applications.length === 0) {
    throw new SandboxConfigError('config_invalid', 'The config needs at least one application.');
  }
  const baseClock =
    options.clock ??
    createClock({ onTaskError: (error, label) => log(`sandbox task "${label}" failed: ${String(error)}`) });
  const state = options.statePath === undefined ? undefined : StatePersistence.open(options.statePath, log);
  const clock = state ? await state.resumeClock(baseClock) : baseClock;
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackAddress(host) && !options.controlToken) {
    throw new SandboxConfigError(
      'control_token_required',
      `Listening on ${host} would open the control endpoints (/sandbox/…: the secrets, the PINs, webhook redirection) to the network: set a control token (--control-token or DCBKIT_SANDBOX_CONTROL_TOKEN).`,
    );
  }
  const port = options.port ?? 0;
  const productionPort = options.production?.port ?? (port === 0 ? 0 : port + 1);
  const sms = new SmsInbox(clock, log);
  state?.restoreSms(sms);
  const shared = {
    onRequest: () => state?.changed(),
    clock,
    sms,
    host,
    fetch: options.fetch ?? globalThis.fetch,
    signatureTime: options.signatureTime ?? (() => new Date()),
    log,
    holdPaymentCreation: options.holdPaymentCreation,
    controlToken: options.controlToken,
  };
  const sandboxConfig = withWebhookUrl(config, options.webhookUrl);
  const productionConfig = withWebhookUrl(
    configForEnvironment(config, 'production'),
    options.production?.webhookUrl,
  );
  const sandboxEnv = await startEnvironment({
    ...shared,
    name: 'sandbox',
    port,
    config: configForEnvironment(sandboxConfig, 'sandbox'),
    live: initiallyLive(config, 'sandbox'),
  });
  let productionEnv: RunningEnvironment;
  try {
    productionEnv = await startEnvironment({
      ...shared,
      name: 'production',
      port: productionPort,
      config: productionConfig,
      live: initiallyLive(config, 'production'),
    });
  } catch (error) {
    await sandboxEnv.close();
    throw error;
  }
  const running = { sandbox: sandboxEnv, production: productionEnv };
  state?.restoreEnvironments(running, {
    sandbox: options.webhookUrl === undefined,
    production: options.production?.webhookUrl === undefined,
  });
  state?.startSaving({ clock, sms, environments: running });
  const environments = {
    sandbox: sandboxEnvironmentView(sandboxEnv),
    production: productionEnvironmentView(productionEnv),
  };

  return {
    apiBaseUrl: environments.sandbox.apiBaseUrl,
    checkoutBaseUrl: environments.sandbox.checkoutBaseUrl,
    credentials: environments.sandbox.credentials,
    environments,
    config: sandboxConfig,
    clock,
    advanceClock: (seconds) => clock.advance(seconds),
    setRenewalOutcome: (subscriptionUid, outcome, times) => {
      const found = Object.values(running).some((env) =>
        env.subscriptions.setRenewalOutcome(subscriptionUid, outcome, times),
      );
      if (!found) throw new SandboxError('unknown_subscription', `Unknown subscription ${subscriptionUid}.`);
    },
    chaos: () => sandboxEnv.outbox.chaosSettings(),
    setChaos: (input) => {
      const parsed = chaosSettingsSchema.safeParse(input);
      if (!parsed.success) {
        throw new SandboxError(
          'invalid_chaos_settings',
          `Invalid chaos settings:\n${z.prettifyError(parsed.error)}`,
        );
      }
      for (const env of Object.values(running)) env.outbox.setChaos(parsed.data);
      return parsed.data;
    },
    webhooks: () => environments.sandbox.webhooks(),
    replayWebhook: (id) => environments.sandbox.replayWebhook(id),
    setWebhookUrl: (url, clientId) => {
      const env = clientId?.startsWith(CLIENT_ID_PREFIX.production) ? 'production' : 'sandbox';
      environments[env].setWebhookUrl(url, clientId);
    },
    deliverDue: () => clock.runDue(),
    sms: (filter) => sms.list(filter),
    close: async () => {
      clock.close();
      await Promise.all([sandboxEnv.close(), productionEnv.close()]);
      await state?.close();
    },
  };
}

function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
