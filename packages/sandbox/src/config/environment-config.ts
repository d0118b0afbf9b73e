import { createHmac } from 'node:crypto';
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
 * The application's production credentials: the config's `production` block, or, when it has none,
 * credentials derived from the sandbox ones (`svc_test_demo` becomes `svc_live_demo`; secrets are
 * keyed hashes, stable for the same config), so every application can rehearse going live.
 */
export function productionOf(app: ApplicationConfig, key: string): ProductionEnvironmentConfig {
  if (app.production) return app.production;
  const derive = (purpose: string) =>
    createHmac('sha256', key).update(`${purpose}\n${app.clientId}`).digest('base64url').slice(0, 32);
  return {
    clientId: `${CLIENT_ID_PREFIX.production}${app.clientId.slice(CLIENT_ID_PREFIX.sandbox.length)}`,
    clientSecret: `live_${derive('client-secret')}`,
    webhook: { url: null, secret: `whsec_live_${derive('webhook-secret')}` },
    approved: false,
  };
}

/**
 * The config one environment runs on. The sandbox's is the config as written. Production's has each
 * application under its production client ID, secret and webhook, and each offer sold to those IDs:
 * the two environments share offers, consent policy and operators, never credentials.
 */
export function configForEnvironment(config: SandboxConfig, name: EnvironmentName): SandboxConfig {
  if (name === 'sandbox') return config;
  const liveIds = new Map<string, string>();
  const applications = config.applications.map((app): ApplicationConfig => {
    const live = productionOf(app, config.subscriberUidKey);
    liveIds.set(app.clientId, live.clientId);
    return {
      clientId: live.clientId,
      clientSecret: live.clientSecret,
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

/** Which production applications passed the go-live review; every sandbox application is live. */
export function initiallyApproved(config: SandboxConfig, name: EnvironmentName): string[] {
  if (name === 'sandbox') return config.applications.map((app) => app.clientId);
  return config.applications.flatMap((app) => {
    const live = productionOf(app, config.subscriberUidKey);
    return live.approved ? [live.clientId] : [];
  });
}
