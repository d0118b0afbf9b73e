import * as z from 'zod';
import { type OfferType, offerTypeSchema } from './offer-type.js';
import { timestampSchema } from './primitives.js';

// Built in pure calls, zod imported as a namespace, so that bundlers can drop them: see index.ts.

/**
 * Where an entitlement stands. Subscriptions use all five; one-time purchases are ACTIVE or REVOKED.
 * - `TRIALING`: in a free trial; access.
 * - `ACTIVE`: paid and running, or bought; access.
 * - `IN_GRACE`: a renewal could not be collected yet; access until `graceEndsAt` when the offer's
 *   grace policy allows it, none otherwise.
 * - `PRE_CANCELED`: ends at `cancelAt`; access until then.
 * - `REVOKED`: access has ended (revoked, suspended, canceled, expired or failed).
 */
export const ENTITLEMENT_STATUSES = ['TRIALING', 'ACTIVE', 'IN_GRACE', 'PRE_CANCELED', 'REVOKED'] as const;
export const entitlementStatusSchema = /* @__PURE__ */ (() => z.enum(ENTITLEMENT_STATUSES))();
export type EntitlementStatus = z.infer<typeof entitlementStatusSchema>;

/** What identifies an entitlement: one per account and product. */
export interface EntitlementKey {
  /** The partner's own user id (see the handler's `accountKey` option). */
  readonly accountKey: string;
  readonly productUid: string;
}

/**
 * Who may use what: one record per (accountKey, productUid). Plain JSON: every field is a string,
 * a count or null, so a store can keep it as one JSON column or as columns. Its size never grows
 * with history: the payment and order ids an entitlement has seen live beside it in the store
 * (see `EntitlementFacts`). Treat it as immutable: rules return a new record.
 */
export interface Entitlement extends EntitlementKey {
  /** The offer of the last applied event (a product may be sold through several offers). */
  readonly offerUid: string;
  readonly type: OfferType;
  readonly status: EntitlementStatus;
  readonly subscriptionUid: string | null;
  readonly subscriberUid: string | null;
  /** The latest period end any event reported: it only moves forward. */
  readonly currentPeriodEnd: string | null;
  readonly trialEndsAt: string | null;
  /** PRE_CANCELED: when access ends. */
  readonly cancelAt: string | null;
  /** IN_GRACE with access allowed by the offer's grace policy: when that access ends. */
  readonly graceEndsAt: string | null;
  /** CONSUMABLE: units bought, one per order (the store keeps the order ids, so a redelivery adds none); 0 otherwise. */
  readonly unitsBought: number;
  /** CONSUMABLE: units used (see `consumeUnit`), never more than `unitsBought`; 0 otherwise. */
  readonly unitsUsed: number;
  /**
   * CONSUMABLE whose offer sells time (its `unitAccessSeconds`, copied by every applied event): how
   * long a spent unit gives access. Such units give access only once spent, until
   * `unitAccessEndsAt`. null: a unit gives access while it is left (credits), and for other types.
   */
  readonly unitAccessSeconds: number | null;
  /** CONSUMABLE with `unitAccessSeconds`: when the access of the units spent ends; null before the first spend. */
  readonly unitAccessEndsAt: string | null;
  /** The last event that set the status, and its `occurredAt`: an older event no longer changes it. */
  readonly lastEventName: string | null;
  readonly lastEventAt: string | null;
}

/**
 * Validates an entitlement read back from storage (for example a JSON column).
 *
 * @example
 * const entitlement = entitlementSchema.parse(row.data);
 */
export const entitlementSchema = /* @__PURE__ */ (() =>
  z.object({
    accountKey: z.string().min(1),
    productUid: z.string().min(1),
    offerUid: z.string().min(1),
    type: offerTypeSchema,
    status: entitlementStatusSchema,
    subscriptionUid: z.string().min(1).nullable(),
    subscriberUid: z.string().min(1).nullable(),
    currentPeriodEnd: timestampSchema.nullable(),
    trialEndsAt: timestampSchema.nullable(),
    cancelAt: timestampSchema.nullable(),
    graceEndsAt: timestampSchema.nullable(),
    unitsBought: z.number().int().nonnegative(),
    unitsUsed: z.number().int().nonnegative(),
    // Absent from records written before they existed: read as null (units give access while left).
    unitAccessSeconds: z.number().int().positive().nullable().default(null),
    unitAccessEndsAt: timestampSchema.nullable().default(null),
    lastEventName: z.string().min(1).nullable(),
    lastEventAt: timestampSchema.nullable(),
  }) satisfies z.ZodType<Entitlement>)();
