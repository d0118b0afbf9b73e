// '@dcbkit/core/webhooks': verification and signing alone, without zod or the rest of the kit,
// for a receiver that only checks signatures (an edge function, a queue consumer).

export { DcbError, isDcbError } from '../errors/dcb-error.js';
export type { WebhookEventName } from '../schemas/event-names.js';
export { type SignWebhookOptions, signWebhook } from './sign-webhook.js';
export { parseSignatureHeader, SIGNATURE_HEADER } from './signature-header.js';
export { type VerifyWebhookOptions, verifyWebhook } from './verify-webhook.js';
export { type WebhookVerificationCode, WebhookVerificationError } from './webhook-verification-error.js';
