// '@dcbkit/core/schemas': the zod schemas of the service's resources and of dcbkit's entitlement,
// for validating what you store or receive yourself (the client and the webhook handler already
// validate what they read). Their types are exported from '@dcbkit/core'.

export { capabilitiesQuerySchema, capabilitiesSchema, consentMethodSchema } from './capabilities.js';
export { checkCreatePaymentRequest, createPaymentRequestSchema } from './create-payment.js';
export { entitlementSchema } from './entitlement.js';
export {
  type ApiErrorBody,
  errorEnvelopeSchema,
  successEnvelopeSchema,
  tokenResponseSchema,
} from './envelope.js';
export { ERROR_CODES } from './error-codes.js';
export { isValidIdempotencyKey } from './idempotency.js';
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
