import type { OptionNames } from '../errors/unknown-options.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { DcbKitConfig } from './kit-types.js';

/** Every option createDcbKit takes: the compiler holds this list to DcbKitConfig. */
export const KIT_OPTIONS: OptionNames<DcbKitConfig<EntitlementStore>> = {
  client: true,
  webhookSecrets: true,
  offers: true,
  store: true,
  ledger: true,
  accountKeyField: true,
  returnUrl: true,
  prefill: true,
  allowedOrigins: true,
  formSecret: true,
  formTokenMaxAgeMs: true,
  checkoutBaseUrl: true,
  on: true,
  linePolicy: true,
  logger: true,
  onError: true,
  toleranceSeconds: true,
  maxBodyBytes: true,
  timeoutMs: true,
  history: true,
  historyRetentionDays: true,
  metrics: true,
  now: true,
};
