// '@dcbkit/core/schemas': the zod schemas of the service's resources and of dcbkit's entitlement,
// for validating what you store or receive yourself (the client and the webhook handler already
// validate what they read). The resources' types (Payment, Subscription, Entitlement, WebhookEvent,
// OfferDefinition…) are '@dcbkit/core''s, and only its; a part of one is `z.infer<typeof …Schema>`.
//
// How every schema of this folder is written, so that an app bundling `verifyWebhook` from
// '@dcbkit/core/webhooks' (and its errors from '@dcbkit/core') gets no zod at all, and a full kit
// only the zod it runs (the dist files are shared chunks: the client and its schemas sit beside the
// verification):
// - zod is imported as a namespace (`import * as z from 'zod'`): a named `{ z }` import is one object
//   that bundlers keep whole, every locale and the JSON Schema tools included (443 KB minified);
// - a module-level schema is built inside a `/* @__PURE__ */ (() => …)()` call, which a bundler may
//   drop when nothing uses its result. A bare `z.object(…)` at module level stays in every bundle that
//   reaches its file, with all it references: chained calls such as `.min(1)` are not known to be pure.
// tree-shaking.test.ts checks both; bench/bundle-size measures the sizes.

export { ERROR_CODES, SERVICE_ERROR_CODES } from './api-error-codes.js';
export { capabilitiesQuerySchema, capabilitiesSchema, consentMethodSchema } from './capabilities.js';
export { checkCreatePaymentRequest, createPaymentRequestSchema } from './create-payment.js';
export { entitlementSchema } from './entitlement.js';
export {
  type ApiErrorBody,
  errorEnvelopeSchema,
  successEnvelopeSchema,
  tokenResponseSchema,
} from './envelope.js';
export { WEBHOOK_EVENT_NAMES } from './event-names.js';
export { isValidIdempotencyKey } from './idempotency.js';
export type { LinePaysTwiceContext, LinePolicy } from './line-pays-twice.js';
export { offerDefinitionSchema } from './offer.js';
export { offerTypeSchema } from './offer-type.js';
export { canceledPaymentSchema, paymentSchema } from './payment.js';
export { moneySchema } from './primitives.js';
export { isAcceptedReturnUrl, webOriginOf } from './return-url.js';
export {
  type SubscriptionCancelRequest,
  subscriptionCancelRequestSchema,
  subscriptionSchema,
} from './subscription.js';
export { webhookEventSchema } from './webhook-event.js';
