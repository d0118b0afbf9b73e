export type { CapabilitiesApi } from './capabilities.js';
export type { ClientLogger, LogFields } from './client-logger.js';
export { CLIENT_DEFAULTS, type CreateClientOptions } from './client-options.js';
export { createClient, type DcbClient } from './create-client.js';
export { CLIENT_ID_PREFIXES, type Environment } from './environment-guard.js';
export {
  type ApiErrorCode,
  DcbApiError,
  DcbClientError,
  DcbConfigurationError,
  type DcbConfigurationErrorReason,
  DcbNetworkError,
  type DcbNetworkErrorReason,
  DcbResponseError,
  type DcbResponseErrorReason,
  DcbTokenError,
  isDcbApiError,
} from './errors.js';
export type { CreatePaymentOptions, PaymentsApi } from './payments.js';
export { BASE_BACKOFF_MS } from './retry-policy.js';
export type { SubscriptionsApi } from './subscriptions.js';
export { TOKEN_RENEWAL_MARGIN_MS } from './token-cache.js';
