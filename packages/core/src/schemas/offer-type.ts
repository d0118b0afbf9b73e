import { z } from 'zod';

export const OFFER_TYPES = ['SUBSCRIPTION', 'CONSUMABLE', 'NON_CONSUMABLE'] as const;
export const offerTypeSchema = z.enum(OFFER_TYPES);
export type OfferType = z.infer<typeof offerTypeSchema>;
