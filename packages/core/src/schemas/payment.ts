import * as z from 'zod';
import type { ServiceErrorCode } from './api-error-codes.js';
import { echoedMetadataSchema, timestampSchema } from './primitives.js';
import { PAYMENT_STATUSES } from './statuses.js';

// Built in pure calls, zod imported as a namespace, so that bundlers can drop them: see index.ts.

export { PAYMENT_STATUSES };
export const paymentStatusSchema = /* @__PURE__ */ (() => z.enum(PAYMENT_STATUSES))();
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/** Statuses after which a payment never changes again (SUCCEEDED is "soft": later changes come as events). */
export const TERMINAL_PAYMENT_STATUSES: readonly PaymentStatus[] = [
  'SUCCEEDED',
  'FAILED',
  'EXPIRED',
  'CANCELED',
];

export const paymentModeSchema = /* @__PURE__ */ (() => z.enum(['HOSTED', 'API']))();
export type PaymentMode = z.infer<typeof paymentModeSchema>;

/**
 * A payment as read from the API. Unknown fields are dropped rather than rejected, so a
 * field the service adds later never breaks a partner.
 */
export const paymentSchema = /* @__PURE__ */ (() =>
  z.object({
    object: z.literal('payment'),
    paymentUid: z.string().min(1),
    mode: paymentModeSchema,
    status: paymentStatusSchema,
    checkoutUrl: z.url(),
    productUid: z.string().min(1),
    offerUid: z.string().min(1),
    expiresAt: timestampSchema,
    metadata: echoedMetadataSchema.optional(),
    /** Present only once money has moved. */
    orderId: z.string().min(1).optional(),
    /** Present only once the subscriber is identified; scoped to the partner's application. */
    subscriberUid: z.string().min(1).optional(),
    /** For SUBSCRIPTION offers once the subscription exists. The spec does not name it: see docs/spec-gaps.md. */
    subscriptionUid: z.string().min(1).optional(),
    /**
     * FAILED: the spec's error code of why (PAY-101, PAY-103, SUB-108, CAT-109, or the number's
     * SBR-102, SBR-104, RSK-101 when the subscriber gave up after it). EXPIRED: the code of the
     * last number the checkout refused (CAT-109 for a line that already owns the item), absent
     * when none was. Not in the spec: see docs/spec-gaps.md; absent when the service does not say.
     */
    failureCode: (z.string().min(1) as z.ZodType<ServiceErrorCode | (string & {})>).optional(),
  }))();
export type Payment = z.infer<typeof paymentSchema>;

/** The cancel response "may carry only object, paymentUid and status"; anything else is optional. */
export const canceledPaymentSchema = /* @__PURE__ */ (() =>
  paymentSchema.partial().required({ object: true, paymentUid: true, status: true }))();
export type CanceledPayment = z.infer<typeof canceledPaymentSchema>;
