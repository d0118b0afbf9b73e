import { z } from 'zod';
import { CLIENT_ID_PREFIX, type EnvironmentName } from '../config/environment-config.js';
import { SandboxConfigError } from '../config/sandbox-config-error.js';
import type { RunningEnvironment } from '../environment/start-environment.js';
import { SandboxError } from '../shared/sandbox-error.js';
import type { WebhookDelivery } from '../webhooks/webhook-outbox.js';

/** What a webhook URL must be, at start and at run time. */
export const webhookUrlSchema = z.url({ protocol: /^https?$/ });

/** The credentials an application holds in one environment. */
export interface EnvironmentCredentials {
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
}

/** One of the service's two environments, as the sandbox emulates it. */
export interface SandboxEnvironment {
  readonly name: EnvironmentName;
  /** `${apiBaseUrl}/oauth2/token`, `${apiBaseUrl}/v1/payments`...; also serves this environment's /sandbox/ controls. */
  readonly apiBaseUrl: string;
  /** Checkout URLs of this environment are `${checkoutBaseUrl}/c/{paymentUid}`. */
  readonly checkoutBaseUrl: string;
  /** `svc_test_` or `svc_live_`: every client ID of this environment starts with it. */
  readonly clientIdPrefix: string;
  /** The first application's credentials in this environment. */
  readonly credentials: EnvironmentCredentials;
  /** Whether an application (default: the first) may get tokens: always in sandbox, after approval in production. */
  isLive(clientId?: string): boolean;
  /**
   * Passes an application's go-live review (default: the first application), as
   * `POST /sandbox/applications/{clientId}/approve` does. Throws SandboxError `unknown_application`
   * for a client ID this environment does not know.
   */
  approve(clientId?: string): void;
  /** This environment's events with their delivery attempts, oldest first. */
  webhooks(): readonly WebhookDelivery[];
  /** Where an application's events of this environment go (default: the first application's), or null. */
  webhookUrl(clientId?: string): string | null;
  /**
   * Points an application's webhooks of this environment (default: the first application's) at a
   * URL, or at none. Throws SandboxError `invalid_webhook_url` or `unknown_application`.
   */
  setWebhookUrl(url: string | null, clientId?: string): void;
}

/** The public face of one running environment. */
export function environmentView(env: RunningEnvironment): SandboxEnvironment {
  const [first] = env.catalog.config.applications;
  if (!first) throw new SandboxConfigError('config_invalid', 'The config needs at least one application.');
  const known = (clientId: string) => {
    if (!env.catalog.application(clientId)) {
      throw new SandboxError(
        'unknown_application',
        `No application ${clientId} in the ${env.name} environment.`,
      );
    }
    return clientId;
  };
  return {
    name: env.name,
    apiBaseUrl: env.origin,
    checkoutBaseUrl: env.origin,
    clientIdPrefix: CLIENT_ID_PREFIX[env.name],
    credentials: {
      clientId: first.clientId,
      clientSecret: first.clientSecret,
      webhookSecret: first.webhook.secret,
    },
    isLive: (clientId = first.clientId) => env.review.isLive(clientId),
    approve: (clientId = first.clientId) => env.review.approve(known(clientId)),
    webhooks: () => env.outbox.list(),
    webhookUrl: (clientId = first.clientId) => env.outbox.webhookUrl(known(clientId)),
    setWebhookUrl: (url, clientId = first.clientId) => {
      if (url !== null && !webhookUrlSchema.safeParse(url).success)
        throw new SandboxError('invalid_webhook_url', `Invalid webhook URL ${url}.`);
      env.outbox.setWebhookUrl(known(clientId), url);
    },
  };
}
