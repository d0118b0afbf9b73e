import { z } from 'zod';
import {
  CLIENT_ID_PREFIX,
  type EnvironmentApplication,
  type EnvironmentName,
} from '../config/environment-config.js';
import { SandboxConfigError } from '../config/sandbox-config-error.js';
import type { RunningEnvironment } from '../environment/start-environment.js';
import { SandboxError } from '../shared/sandbox-error.js';
import type { WebhookDelivery } from '../webhooks/delivery-record.js';

/** What a webhook URL must be, at start and at run time. */
export const webhookUrlSchema = z.url({ protocol: /^https?$/ });

/** The credentials an application holds in one environment. */
export interface EnvironmentCredentials {
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
}

/** One of the service's two environments, as the sandbox emulates it: what both have. */
export interface SandboxEnvironment {
  readonly name: EnvironmentName;
  /** `${apiBaseUrl}/oauth2/token`, `${apiBaseUrl}/v1/payments`...; also serves this environment's /sandbox/ controls. */
  readonly apiBaseUrl: string;
  /** Checkout URLs of this environment are `${checkoutBaseUrl}/c/{paymentUid}`. */
  readonly checkoutBaseUrl: string;
  /** `svc_test_` or `svc_live_`: every client ID of this environment starts with it. */
  readonly clientIdPrefix: string;
  /** Whether an application (default: the first) holds credentials: always in sandbox, after approval in production. */
  isLive(clientId?: string): boolean;
  /** This environment's events with their delivery attempts, oldest first. */
  webhooks(): readonly WebhookDelivery[];
  /**
   * The secret an application's events of this environment are signed with (default: the first
   * application's). Set in the console, not a client credential: production has one before
   * approval. Throws SandboxError `unknown_application`.
   */
  webhookSecret(clientId?: string): string;
  /** Where an application's events of this environment go (default: the first application's), or null. */
  webhookUrl(clientId?: string): string | null;
  /**
   * Points an application's webhooks of this environment (default: the first application's) at a
   * URL, or at none. Throws SandboxError `invalid_webhook_url` or `unknown_application`.
   */
  setWebhookUrl(url: string | null, clientId?: string): void;
  /**
   * Posts one of this environment's events once more, now, whatever its status, as the partner
   * console's replay does (and `POST /sandbox/webhooks/{id}/replay`): a 2xx answer marks it
   * DELIVERED, any other leaves its status as it was. Resolves with the event and all its attempts.
   * Throws SandboxError `unknown_webhook_event` or `no_webhook_url`.
   */
  replayWebhook(id: string): Promise<WebhookDelivery>;
}

/** The sandbox environment: every application is live from the start, with the config's credentials. */
export interface SandboxTestEnvironment extends SandboxEnvironment {
  readonly name: 'sandbox';
  /** The first application's credentials in this environment. */
  readonly credentials: EnvironmentCredentials;
}

/**
 * The emulated production environment: "not live until approved". An application has no client
 * secret until its go-live review passes; approving issues it and shows it once, in the answer.
 */
export interface SandboxProductionEnvironment extends SandboxEnvironment {
  readonly name: 'production';
  /**
   * Passes an application's go-live review (default: the first application), as
   * `POST /sandbox/applications/{clientId}/approve` does, and returns its production credentials:
   * the only time the client secret is shown (the sandbox keeps a hash of it). Throws SandboxError
   * `unknown_application` for a client ID this environment does not know, `already_approved` for a
   * live one.
   *
   * @example
   * const credentials = sandbox.environments.production.approve();
   * const client = createClient({ environment: 'production', baseUrl: sandbox.environments.production.apiBaseUrl, ...credentials });
   */
  approve(clientId?: string): EnvironmentCredentials;
}

/** What the public views of both environments share. */
function commonView(env: RunningEnvironment, first: EnvironmentApplication) {
  const known = (clientId: string) => knownApplication(env, clientId).clientId;
  return {
    apiBaseUrl: env.origin,
    checkoutBaseUrl: env.origin,
    clientIdPrefix: CLIENT_ID_PREFIX[env.name],
    isLive: (clientId = first.clientId) => env.review.isLive(clientId),
    webhooks: () => env.outbox.list(),
    webhookSecret: (clientId = first.clientId) => knownApplication(env, clientId).webhook.secret,
    webhookUrl: (clientId = first.clientId) => env.outbox.webhookUrl(known(clientId)),
    setWebhookUrl: (url: string | null, clientId = first.clientId) => {
      if (url !== null && !webhookUrlSchema.safeParse(url).success)
        throw new SandboxError('invalid_webhook_url', `Invalid webhook URL ${url}.`);
      env.outbox.setWebhookUrl(known(clientId), url);
    },
    replayWebhook: async (id: string) => {
      const delivery = env.outbox.get(id);
      if (!delivery) {
        throw new SandboxError(
          'unknown_webhook_event',
          `No event ${id} in the ${env.name} environment (events delivered are freed after the config's retention).`,
        );
      }
      if (env.outbox.webhookUrl(delivery.clientId) === null) {
        throw new SandboxError(
          'no_webhook_url',
          `Application ${delivery.clientId} has no webhook URL to replay ${id} to: set one with setWebhookUrl.`,
        );
      }
      return (await env.outbox.replay(id)) ?? delivery;
    },
  };
}

/** The public face of the running sandbox environment. */
export function sandboxEnvironmentView(env: RunningEnvironment): SandboxTestEnvironment {
  const first = firstApplication(env);
  if (first.clientSecret === null) throw new TypeError('A sandbox application always has its secret.');
  return {
    ...commonView(env, first),
    name: 'sandbox',
    credentials: {
      clientId: first.clientId,
      clientSecret: first.clientSecret,
      webhookSecret: first.webhook.secret,
    },
  };
}

/** The public face of the running production environment. */
export function productionEnvironmentView(env: RunningEnvironment): SandboxProductionEnvironment {
  const first = firstApplication(env);
  return {
    ...commonView(env, first),
    name: 'production',
    approve: (clientId = first.clientId) => {
      const application = knownApplication(env, clientId);
      return {
        clientId,
        clientSecret: env.review.approve(clientId),
        webhookSecret: application.webhook.secret,
      };
    },
  };
}

function firstApplication(env: RunningEnvironment): EnvironmentApplication {
  const [first] = env.catalog.config.applications;
  if (!first) throw new SandboxConfigError('config_invalid', 'The config needs at least one application.');
  return first;
}

function knownApplication(env: RunningEnvironment, clientId: string): EnvironmentApplication {
  const application = env.catalog.application(clientId);
  if (!application) {
    throw new SandboxError(
      'unknown_application',
      `No application ${clientId} in the ${env.name} environment.`,
    );
  }
  return application;
}
