export { type CreateClockOptions, createClock, type SandboxClock } from './clock/clock.js';
export type { ScheduledTask } from './clock/scheduled-task.js';
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
export { CLIENT_ID_PREFIX, type EnvironmentName } from './config/environment-config.js';
export type { TextPosition } from './config/json-position.js';
export { defaultSandboxConfig, loadSandboxConfig, parseSandboxConfig } from './config/load-config.js';
export { offerDefinitionsOf } from './config/offer-definitions.js';
export {
  type ConfigIssue,
  SandboxConfigError,
  type SandboxConfigErrorCode,
} from './config/sandbox-config-error.js';
export type { ApiAnswer } from './environment/api-routes.js';
export { SandboxPortInUseError } from './http/port-in-use-error.js';
export { type ApiRoute, OPENAPI_DOCUMENT } from './openapi/openapi-document.js';
export type { SmsMessage } from './operator/sms-inbox.js';
export { SANDBOX_ERROR_CODES, SandboxError, type SandboxErrorCode } from './shared/sandbox-error.js';
export type {
  EnvironmentCredentials,
  SandboxEnvironment,
  SandboxProductionEnvironment,
  SandboxTestEnvironment,
} from './start/environment-view.js';
export { type Sandbox, type StartSandboxOptions, startSandbox } from './start/start-sandbox.js';
export { RENEWAL_OUTCOMES, type RenewalOutcome } from './subscriptions/renewal-outcome.js';
export type {
  AttemptChaos,
  DeliveryAttempt,
  DeliveryStatus,
  WebhookDelivery,
} from './webhooks/delivery-record.js';
