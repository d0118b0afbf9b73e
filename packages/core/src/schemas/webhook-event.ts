import * as z from 'zod';
import type { WebhookEventName } from './event-names.js';
import { paymentStatusSchema } from './payment.js';
import { echoedMetadataSchema, moneySchema, timestampSchema } from './primitives.js';
import { subscriptionStatusSchema } from './subscription.js';

export { isKnownEventName, WEBHOOK_EVENT_NAMES, type WebhookEventName } from './event-names.js';

// Built in pure calls, zod imported as a namespace, so that bundlers can drop them: see index.ts.

// Opaque identifiers; events are hot-path reads, so they are checked for type only.
const id = /* @__PURE__ */ (() => z.string())();

/**
 * Every field an event may carry. The spec lists the payload once and says which fields each
 * event kind carries only for `payment.succeeded`, so everything but `event` and `occurredAt`
 * is optional here; the subscription fields are dcbkit's reading of what the spec leaves out
 * (docs/spec-gaps.md). `status` stays a plain string outside payment events so that a status
 * of another kind can never make a genuine event fail validation.
 */
const baseEventShape = /* @__PURE__ */ (() => ({
  /** The event name. Autocompletes the known names; any other string is a newer event. */
  event: z.string().min(1) as z.ZodType<WebhookEventName | (string & {})>,
  occurredAt: timestampSchema,
  paymentUid: id.optional(),
  status: z.string().optional(),
  orderId: id.optional(),
  productUid: id.optional(),
  offerUid: id.optional(),
  subscriberUid: id.optional(),
  amountCollected: moneySchema.optional(),
  periodOutstanding: moneySchema.optional(),
  metadata: echoedMetadataSchema.optional(),
  subscriptionUid: id.optional(),
  subscriptionStatus: subscriptionStatusSchema.optional(),
  currentPeriodEnd: timestampSchema.optional(),
  cancelAt: timestampSchema.nullish(),
  trialEndsAt: timestampSchema.nullish(),
}))();

/** Any event, known or not. */
export const webhookEventSchema = /* @__PURE__ */ (() => z.object(baseEventShape))();
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** `payment.succeeded` and `payment.failed` always name the payment, its status, product and offer. */
export const paymentEventSchema = /* @__PURE__ */ (() =>
  z.object({
    ...baseEventShape,
    event: z.enum(['payment.succeeded', 'payment.failed']),
    paymentUid: id,
    status: paymentStatusSchema,
    productUid: id,
    offerUid: id,
  }))();
export type PaymentWebhookEvent = z.infer<typeof paymentEventSchema>;

const schemaByEventName: ReadonlyMap<string, z.ZodType<WebhookEvent>> = /* @__PURE__ */ new Map([
  ['payment.succeeded', paymentEventSchema],
  ['payment.failed', paymentEventSchema],
]);

/** The schema that validates an event of this name (the generic one for every other name). */
export function eventSchemaFor(name: unknown): z.ZodType<WebhookEvent> {
  return (typeof name === 'string' && schemaByEventName.get(name)) || webhookEventSchema;
}

export function isPaymentEvent(event: WebhookEvent): event is PaymentWebhookEvent {
  return event.event === 'payment.succeeded' || event.event === 'payment.failed';
}
