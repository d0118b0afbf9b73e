import * as z from 'zod';
import { timestampSchema } from './primitives.js';
import { SUBSCRIPTION_STATUSES } from './statuses.js';

// Built in pure calls, zod imported as a namespace, so that bundlers can drop them: see index.ts.

export { SUBSCRIPTION_STATUSES };
export const subscriptionStatusSchema = /* @__PURE__ */ (() => z.enum(SUBSCRIPTION_STATUSES))();
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

export const subscriptionSchema = /* @__PURE__ */ (() =>
  z.object({
    subscriptionUid: z.string().min(1),
    status: subscriptionStatusSchema,
    productUid: z.string().min(1),
    offerUid: z.string().min(1),
    subscriberUid: z.string().min(1),
    currentPeriodEnd: timestampSchema,
    cancelAt: timestampSchema.nullable(),
    /** Named by the spec for trialing subscriptions only. */
    trialEndsAt: timestampSchema.nullish(),
  }))();
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionCancelWhenSchema = /* @__PURE__ */ (() => z.enum(['NOW', 'PERIOD_END']))();
export type SubscriptionCancelWhen = z.infer<typeof subscriptionCancelWhenSchema>;

/** Body of POST /v1/subscriptions/{uid}/cancel: required, no other properties. */
export const subscriptionCancelRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({ when: subscriptionCancelWhenSchema }))();
export type SubscriptionCancelRequest = z.infer<typeof subscriptionCancelRequestSchema>;
