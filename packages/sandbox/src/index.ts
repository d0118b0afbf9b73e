export {
  type CreateClockOptions,
  createClock,
  type SandboxClock,
  type ScheduledTask,
} from './clock/clock.js';
export {
  type ChaosSettings,
  type ChaosSettingsInput,
  chaosSettingsSchema,
} from './config/chaos-settings.js';
export {
  APPLICATION_CAPABILITIES,
  type ApplicationCapability,
  type ApplicationConfig,
  applicationConfigSchema,
  type ConsentPolicy,
  consentPolicySchema,
  type OperatorConfig,
  operatorConfigSchema,
  type SandboxConfig,
  type SandboxConfigInput,
  type SandboxOffer,
  sandboxConfigSchema,
  sandboxOfferSchema,
  TEST_NUMBER_OUTCOMES,
  type TestNumberOutcome,
} from './config/config-schema.js';
export {
  defaultSandboxConfig,
  loadSandboxConfig,
  parseSandboxConfig,
  SandboxConfigError,
} from './config/load-config.js';
export { offerDefinitionsOf } from './config/offer-definitions.js';
export type { SmsMessage } from './operator/sms-inbox.js';
export { type Sandbox, type StartSandboxOptions, startSandbox } from './start-sandbox.js';
export { RENEWAL_OUTCOMES, type RenewalOutcome } from './subscriptions/renewal-outcome.js';
export type {
  AttemptChaos,
  DeliveryAttempt,
  DeliveryStatus,
  WebhookDelivery,
} from './webhooks/webhook-outbox.js';
