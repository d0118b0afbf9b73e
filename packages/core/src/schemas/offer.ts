import * as z from 'zod';
import { offerTypeSchema } from './offer-type.js';
import { moneySchema } from './primitives.js';

// Built in pure calls, zod imported as a namespace, so that bundlers can drop them: see index.ts.

export const billingPeriodUnitSchema = /* @__PURE__ */ (() => z.enum(['DAY', 'WEEK', 'MONTH', 'YEAR']))();
export type BillingPeriodUnit = z.infer<typeof billingPeriodUnitSchema>;

/** How often a SUBSCRIPTION renews: `{ unit: 'MONTH', count: 1 }` is monthly. */
export const billingPeriodSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    unit: billingPeriodUnitSchema,
    count: z.number().int().min(1).default(1),
  }))();
export type BillingPeriod = z.infer<typeof billingPeriodSchema>;

/**
 * What happens when a renewal cannot be collected: the service retries for `days` days, and the
 * subscriber keeps access meanwhile only when `accessDuringGrace` is true.
 */
export const gracePolicySchema = /* @__PURE__ */ (() =>
  z.strictObject({
    days: z.number().int().min(0),
    accessDuringGrace: z.boolean(),
  }))();
export type GracePolicy = z.infer<typeof gracePolicySchema>;

export const NO_GRACE: GracePolicy = /* @__PURE__ */ Object.freeze({ days: 0, accessDuringGrace: false });

/**
 * An offer as configured in the partner console. The API has no offer read, so the partner
 * keeps this copy (and the sandbox is configured with the same shape).
 */
export const offerDefinitionSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      offerUid: z.string().min(1),
      productUid: z.string().min(1),
      name: z.string().min(1),
      type: offerTypeSchema,
      price: moneySchema,
      /** Required for SUBSCRIPTION offers, absent for one-time ones. */
      billingPeriod: billingPeriodSchema.nullish(),
      trialDays: z.number().int().min(0).default(0),
      gracePolicy: gracePolicySchema.default(NO_GRACE),
      /**
       * SUBSCRIPTION with a trial: the offer sold instead once the subscriber has used the trial (the
       * same product, no trial days), so a returning subscriber pays to come back rather than being
       * refused SUB-108. A partner-side setting: the service has no such field. An offer with no trial
       * days sells itself to everyone and ignores it.
       */
      onceTrialUsed: z.string().min(1).optional(),
      /**
       * CONSUMABLE that sells time (a day pass: 86_400): how long, in seconds, each unit spent gives
       * access. Without it, a unit gives access while it is left (credits). A partner-side setting:
       * the service has no such field.
       */
      unitAccessSeconds: z.number().int().min(1).optional(),
    })
    .superRefine((offer, ctx) => {
      if (offer.type === 'SUBSCRIPTION' && !offer.billingPeriod) {
        ctx.addIssue({
          code: 'custom',
          path: ['billingPeriod'],
          message: 'a SUBSCRIPTION offer needs a billingPeriod',
        });
      }
      if (offer.type !== 'SUBSCRIPTION' && offer.trialDays > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['trialDays'],
          message: 'only SUBSCRIPTION offers have trials',
        });
      }
      if (offer.type !== 'CONSUMABLE' && offer.unitAccessSeconds !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['unitAccessSeconds'],
          message: 'only CONSUMABLE offers have units to spend',
        });
      }
    }))();
export type OfferDefinition = z.output<typeof offerDefinitionSchema>;
export type OfferDefinitionInput = z.input<typeof offerDefinitionSchema>;
