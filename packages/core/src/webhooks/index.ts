// '@dcbkit/core/webhooks': verification and signing alone, without zod or the rest of the kit,
// for a receiver that only checks signatures (an edge function, a queue consumer). Nothing here
// imports a node builtin: it bundles for any runtime (esbuild `platform: 'neutral'`), and finds
// node's crypto at run time where there is one.
//
// The error family (DcbError, isDcbError, WebhookVerificationError) is '@dcbkit/core''s too: what a
// caller of this entry catches. Every other name here is exported by this entry alone.

export { DcbError, isDcbError } from '../errors/dcb-error.js';
export { type SignWebhookOptions, signWebhook } from './sign-webhook.js';
export { signWebhookAsync } from './sign-webhook-async.js';
export { parseSignatureHeader, SIGNATURE_HEADER } from './signature-header.js';
export { type VerifyWebhookOptions, verifyWebhook } from './verify-webhook.js';
export { verifyWebhookAsync } from './verify-webhook-async.js';
export { WebhookVerificationError } from './webhook-verification-error.js';
