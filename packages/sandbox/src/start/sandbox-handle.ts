import { z } from 'zod';
import type { SandboxClock } from '../clock/clock.js';
import {
  type ChaosSettings,
  type ChaosSettingsInput,
  chaosSettingsSchema,
} from '../config/chaos-settings.js';
import type { SandboxConfig } from '../config/config-schema.js';
import { CLIENT_ID_PREFIX } from '../config/environment-config.js';
import type { RunningEnvironment } from '../environment/start-environment.js';
import type { SmsInbox, SmsMessage } from '../operator/sms-inbox.js';
import { SandboxError } from '../shared/sandbox-error.js';
import type { StatePersistence } from '../state/state-persistence.js';
import type { RenewalOutcome } from '../subscriptions/renewal-outcome.js';
import type { WebhookDelivery } from '../webhooks/delivery-record.js';
import {
  type EnvironmentCredentials,
  productionEnvironmentView,
  type SandboxProductionEnvironment,
  type SandboxTestEnvironment,
  sandboxEnvironmentView,
} from './environment-view.js';

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

/** What a started sandbox is made of. */
export interface SandboxParts {
  running: { sandbox: RunningEnvironment; production: RunningEnvironment };
  /** The config as given, with the sandbox environment's webhook URL applied. */
  config: SandboxConfig;
  clock: SandboxClock;
  sms: SmsInbox;
  state: StatePersistence | undefined;
}

/** The `Sandbox` a caller holds: each method over the environment (or both) it concerns. */
export function sandboxHandle(parts: SandboxParts): Sandbox {
  const { running, config, clock, sms, state } = parts;
  const environments = {
    sandbox: sandboxEnvironmentView(running.sandbox),
    production: productionEnvironmentView(running.production),
  };
  return {
    apiBaseUrl: environments.sandbox.apiBaseUrl,
    checkoutBaseUrl: environments.sandbox.checkoutBaseUrl,
    credentials: environments.sandbox.credentials,
    environments,
    config,
    clock,
    advanceClock: (seconds) => clock.advance(seconds),
    setRenewalOutcome: (subscriptionUid, outcome, times) => {
      const found = Object.values(running).some((env) =>
        env.subscriptions.setRenewalOutcome(subscriptionUid, outcome, times),
      );
      if (!found) throw new SandboxError('unknown_subscription', `Unknown subscription ${subscriptionUid}.`);
    },
    chaos: () => running.sandbox.outbox.chaosSettings(),
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
      await Promise.all([running.sandbox.close(), running.production.close()]);
      await state?.close();
    },
  };
}
