import { createHmac } from 'node:crypto';
import type { ClientSecret } from '../go-live/go-live-review.js';
import type { ApplicationConfig, ProductionEnvironmentConfig, SandboxConfig } from './config-schema.js';

/** The spec's two deployments. The sandbox emulates both; only the mock operator ever charges. */
export const ENVIRONMENT_NAMES = ['sandbox', 'production'] as const;
export type EnvironmentName = (typeof ENVIRONMENT_NAMES)[number];

/** The spec's client ID prefix of each environment. */
export const CLIENT_ID_PREFIX = {
  sandbox: 'svc_test_',
  production: 'svc_live_',
} as const satisfies Record<EnvironmentName, string>;

/**
 * An application as one environment runs it: its client ID, webhook and capabilities there (and,
 * in the sandbox environment, the `production` block as written). Its client secret is checked by
 * the environment's go-live review, which keeps only a hash.
 */
export interface EnvironmentApplication extends Omit<ApplicationConfig, 'clientSecret'> {
  /**
   * The secret the dashboard and the CLI may show: the sandbox environment's, from the config. Null
   * in production, whose secret is shown once, when the go-live review issues it.
   */
  clientSecret: string | null;
}

/** The config one environment runs on: the shared catalog, with that environment's applications. */
export interface EnvironmentConfig extends Omit<SandboxConfig, 'applications'> {
  applications: EnvironmentApplication[];
}

/**
 * The application's production environment: the config's `production` block, or, when it has none,
 * one derived from the sandbox application (`svc_test_demo` becomes `svc_live_demo`, the webhook
 * secret a keyed hash, stable for the same config), not yet approved, so every application can
 * rehearse going live. No client secret until its go-live review issues one.
 */
export function productionOf(app: ApplicationConfig, key: string): ProductionEnvironmentConfig {
  if (app.production) return app.production;
  const webhookSecret = createHmac('sha256', key)
    .update(`webhook-secret\n${app.clientId}`)
    .digest('base64url')
    .slice(0, 32);
  return {
    clientId: `${CLIENT_ID_PREFIX.production}${app.clientId.slice(CLIENT_ID_PREFIX.sandbox.length)}`,
    webhook: { url: null, secret: `whsec_live_${webhookSecret}` },
    approved: false,
  };
}

/**
 * The config one environment runs on. The sandbox's is the config itself (the same objects, so a
 * change to `sandbox.config`, a rate limit say, applies at once), each application with its
 * secret. Production's has each application under its production client ID and webhook, without
 * a secret, and each offer sold to those IDs: the two environments share offers, consent policy
 * and operators, never credentials.
 */
export function configForEnvironment(config: SandboxConfig, name: EnvironmentName): EnvironmentConfig {
  if (name === 'sandbox') return config;
  const liveIds = new Map<string, string>();
  const applications = config.applications.map((app): EnvironmentApplication => {
    const live = productionOf(app, config.subscriberUidKey);
    liveIds.set(app.clientId, live.clientId);
    return {
      clientId: live.clientId,
      clientSecret: null,
      name: app.name,
      capabilities: app.capabilities,
      webhook: live.webhook,
      rateLimit: app.rateLimit,
    };
  });
  const offers = config.offers.map((offer) => ({
    ...offer,
    applications: offer.applications.flatMap((clientId) => liveIds.get(clientId) ?? []),
  }));
  return { ...config, applications, offers };
}

/**
 * The applications live when the environment starts, with the secrets they hold: every sandbox
 * application; a production one only when the config says its review passed (`approved: true`,
 * with the secret that review issued).
 */
export function initiallyLive(config: SandboxConfig, name: EnvironmentName): ClientSecret[] {
  if (name === 'sandbox') {
    return config.applications.map(({ clientId, clientSecret }) => ({ clientId, clientSecret }));
  }
  return config.applications.flatMap((app) => {
    const { clientId, clientSecret, approved } = productionOf(app, config.subscriberUidKey);
    return approved && clientSecret !== undefined ? [{ clientId, clientSecret }] : [];
  });
}
