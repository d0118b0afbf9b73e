// '@dcbkit/core/schemas': the zod schemas of every resource, for validating what you store or
// receive yourself. The client and the handler already validate what they read.

export * from './capabilities.js';
export * from './create-payment.js';
export {
  ENTITLEMENT_STATUSES,
  entitlementSchema,
  entitlementStatusSchema,
} from './entitlement.js';
export * from './envelope.js';
export * from './error-codes.js';
export * from './idempotency.js';
export * from './offer.js';
export * from './offer-type.js';
export * from './payment.js';
export * from './primitives.js';
export * from './subscription.js';
export * from './webhook-event.js';
