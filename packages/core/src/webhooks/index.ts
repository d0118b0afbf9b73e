export { computeSignature, type RawBody } from './hmac.js';
export { type SignWebhookOptions, signWebhook } from './sign-webhook.js';
export {
  formatSignatureHeader,
  MAX_V1_ENTRIES,
  type ParsedSignatureHeader,
  parseSignatureHeader,
  SIGNATURE_HEADER,
} from './signature-header.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  parseWebhookEvent,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookSignature,
} from './verify-webhook.js';
export {
  isAuthenticationFailure,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './webhook-verification-error.js';
