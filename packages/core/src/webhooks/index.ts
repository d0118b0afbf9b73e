// '@dcbkit/core/webhooks': verification and signing alone, without zod or the rest of the kit,
// for a receiver that only checks signatures (an edge function, a queue consumer).

export { type AccessEffect, WEBHOOK_EVENTS } from '../access/event-table.js';
export { DcbError, isDcbError } from '../errors/dcb-error.js';
export { isKnownEventName, type WebhookEventName } from '../schemas/event-names.js';
export { type SignWebhookOptions, signWebhook } from './sign-webhook.js';
export { MAX_V1_ENTRIES, parseSignatureHeader, SIGNATURE_HEADER } from './signature-header.js';
export { DEFAULT_TOLERANCE_SECONDS, type VerifyWebhookOptions, verifyWebhook } from './verify-webhook.js';
export { type WebhookVerificationCode, WebhookVerificationError } from './webhook-verification-error.js';
