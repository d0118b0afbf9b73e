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
export { configJsonSchema } from './config/config-json-schema.js';
export {
  APPLICATION_CAPABILITIES,
  type ApplicationCapability,
  type ApplicationConfig,
  applicationConfigSchema,
  type ConsentPolicy,
  consentPolicySchema,
  type OperatorConfig,
  operatorConfigSchema,
  type ProductionEnvironmentConfig,
  productionEnvironmentSchema,
  type SandboxConfig,
  type SandboxConfigInput,
  type SandboxOffer,
  sandboxConfigSchema,
  sandboxOfferSchema,
  TEST_NUMBER_OUTCOMES,
  type TestNumberOutcome,
} from './config/config-schema.js';
export type { TextPosition } from './config/json-position.js';
export {
  type ConfigIssue,
  defaultSandboxConfig,
  loadSandboxConfig,
  parseSandboxConfig,
  SandboxConfigError,
} from './config/load-config.js';
export { offerDefinitionsOf } from './config/offer-definitions.js';
export { CLIENT_ID_PREFIX, type EnvironmentName } from './environment/environment-config.js';
export { SandboxPortInUseError } from './environment/port-in-use-error.js';
export type { SmsMessage } from './operator/sms-inbox.js';
export {
  type EnvironmentCredentials,
  type Sandbox,
  type SandboxEnvironment,
  type StartSandboxOptions,
  startSandbox,
} from './start-sandbox.js';
export { RENEWAL_OUTCOMES, type RenewalOutcome } from './subscriptions/renewal-outcome.js';
export type {
  AttemptChaos,
  DeliveryAttempt,
  DeliveryStatus,
  WebhookDelivery,
} from './webhooks/webhook-outbox.js';
