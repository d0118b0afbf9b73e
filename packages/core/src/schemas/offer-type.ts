import * as z from 'zod';

// Built in pure calls, zod imported as a namespace, so that bundlers can drop them: see index.ts.

export const OFFER_TYPES = ['SUBSCRIPTION', 'CONSUMABLE', 'NON_CONSUMABLE'] as const;
export const offerTypeSchema = /* @__PURE__ */ (() => z.enum(OFFER_TYPES))();
export type OfferType = z.infer<typeof offerTypeSchema>;
