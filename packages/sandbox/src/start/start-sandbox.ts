import { type OptionNames, refuseUnknownOptions } from '@dcbkit/core/web';
import { createClock, type SandboxClock } from '../clock/clock.js';
import type { SandboxConfig, SandboxConfigInput } from '../config/config-schema.js';
import { configForEnvironment, type EnvironmentConfig, initiallyLive } from '../config/environment-config.js';
import { resolveSandboxConfig } from '../config/load-config.js';
import { SandboxConfigError } from '../config/sandbox-config-error.js';
import type { ApiAnswer } from '../environment/api-routes.js';
import { type StartEnvironmentOptions, startEnvironment } from '../environment/start-environment.js';
import { SmsInbox } from '../operator/sms-inbox.js';
import { StatePersistence } from '../state/state-persistence.js';
import { webhookUrlSchema } from './environment-view.js';
import { type Sandbox, type SandboxParts, sandboxHandle } from './sandbox-handle.js';

export type { Sandbox } from './sandbox-handle.js';

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
  /**
   * Told every answer of the service's API operations (token, capabilities, payments,
   * subscriptions) as written, with the operation's method and path: contract tests validate
   * them against `@dcbkit/sandbox/openapi.json`. A throw answers SBX-500.
   */
  onApiAnswer?: (answer: ApiAnswer) => void;
}

/** A running sandbox: both environments, one clock, one mock operator. */
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

/** Every option startSandbox takes: the compiler holds this list to StartSandboxOptions; another is refused (unknown_option). */
const START_SANDBOX_OPTIONS: OptionNames<StartSandboxOptions> = {
  port: true,
  host: true,
  controlToken: true,
  config: true,
  clock: true,
  webhookUrl: true,
  production: true,
  statePath: true,
  fetch: true,
  log: true,
  signatureTime: true,
  holdPaymentCreation: true,
  onApiAnswer: true,
};

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
  if (typeof options === 'object' && options !== null)
    refuseUnknownOptions('startSandbox', options, START_SANDBOX_OPTIONS);
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
  refuseOpenControl(host, options.controlToken);
  const sms = new SmsInbox(clock, log);
  state?.restoreSms(sms);
  const shared: SharedEnvironmentOptions = {
    onRequest: () => state?.changed(),
    clock,
    sms,
    host,
    fetch: options.fetch ?? globalThis.fetch,
    signatureTime: options.signatureTime ?? (() => new Date()),
    log,
    holdPaymentCreation: options.holdPaymentCreation,
    onApiAnswer: options.onApiAnswer,
    controlToken: options.controlToken,
  };
  const sandboxConfig = withWebhookUrl(config, options.webhookUrl);
  const running = await startEnvironments(shared, config, sandboxConfig, options);
  state?.restoreEnvironments(running, {
    sandbox: options.webhookUrl === undefined,
    production: options.production?.webhookUrl === undefined,
  });
  state?.startSaving({ clock, sms, environments: running });
  return sandboxHandle({ running, config: sandboxConfig, clock, sms, state });
}

/** What both environments share: one clock, one mock operator, one host, one log. */
type SharedEnvironmentOptions = Omit<StartEnvironmentOptions, 'name' | 'port' | 'config' | 'live'>;

/** The sandbox environment, then production (on the next port unless told): both, or neither. */
async function startEnvironments(
  shared: SharedEnvironmentOptions,
  config: SandboxConfig,
  sandboxConfig: SandboxConfig,
  options: StartSandboxOptions,
): Promise<SandboxParts['running']> {
  const port = options.port ?? 0;
  const productionConfig = withWebhookUrl(
    configForEnvironment(config, 'production'),
    options.production?.webhookUrl,
  );
  const sandbox = await startEnvironment({
    ...shared,
    name: 'sandbox',
    port,
    config: configForEnvironment(sandboxConfig, 'sandbox'),
    live: initiallyLive(config, 'sandbox'),
  });
  try {
    const production = await startEnvironment({
      ...shared,
      name: 'production',
      port: options.production?.port ?? (port === 0 ? 0 : port + 1),
      config: productionConfig,
      live: initiallyLive(config, 'production'),
    });
    return { sandbox, production };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

/** Off this machine, the control endpoints need a token. Throws SandboxConfigError. */
function refuseOpenControl(host: string, controlToken: string | undefined): void {
  if (!isLoopbackAddress(host) && !controlToken) {
    throw new SandboxConfigError(
      'control_token_required',
      `Listening on ${host} would open the control endpoints (/sandbox/…: the secrets, the PINs, webhook redirection) to the network: set a control token (--control-token or DCBKIT_SANDBOX_CONTROL_TOKEN).`,
    );
  }
}

function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
