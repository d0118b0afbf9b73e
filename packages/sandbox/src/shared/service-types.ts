import type { DcbErrorCode, OfferDefinition } from '@dcbkit/core';
import type {
  capabilitiesSchema,
  consentMethodSchema,
  createPaymentRequestSchema,
  offerTypeSchema,
  SubscriptionCancelRequest,
} from '@dcbkit/core/schemas';
import type * as z from 'zod';

// The parts of the service's resources the emulator names, read off core's schemas: an app's
// front door ('@dcbkit/core') exports the resources whole, and the emulator needs their parts.

export type Capabilities = z.infer<typeof capabilitiesSchema>;
export type ConsentMethod = z.infer<typeof consentMethodSchema>;
export type CreatePaymentRequest = z.infer<typeof createPaymentRequestSchema>;
export type OfferType = z.infer<typeof offerTypeSchema>;
export type BillingPeriod = NonNullable<OfferDefinition['billingPeriod']>;
export type GracePolicy = OfferDefinition['gracePolicy'];
export type SubscriptionCancelWhen = SubscriptionCancelRequest['when'];
/** The `metadata` the service echoes back: any JSON object. */
export type Metadata = Record<string, unknown>;
/** A code of the spec's error table. */
export type ErrorCode = DcbErrorCode<'service'>;
/** A spec error code, or a newer one the service may add (autocompletes the known ones). */
export type ApiErrorCode = ErrorCode | (string & {});
