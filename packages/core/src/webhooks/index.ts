// '@dcbkit/core/webhooks': verification and signing alone, without zod or the rest of the kit,
// for a receiver that only checks signatures (an edge function, a queue consumer).

export { DcbError, isDcbError } from '../errors/dcb-error.js';
export { type SignWebhookOptions, signWebhook } from './sign-webhook.js';
export { MAX_V1_ENTRIES, parseSignatureHeader, SIGNATURE_HEADER } from './signature-header.js';
export { DEFAULT_TOLERANCE_SECONDS, type VerifyWebhookOptions, verifyWebhook } from './verify-webhook.js';
export {
  type AccessEffect,
  isKnownEventName,
  WEBHOOK_EVENTS,
  type WebhookEventName,
} from './webhook-events.js';
export { type WebhookVerificationCode, WebhookVerificationError } from './webhook-verification-error.js';
