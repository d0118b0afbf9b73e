import * as z from 'zod';
import { paymentModeSchema } from './payment.js';

// Built in pure calls, zod imported as a namespace, so that bundlers can drop them: see index.ts.

export const CONSENT_METHODS = ['HEADER_ENRICHMENT', 'PIN', 'MO_SMS'] as const;
export const consentMethodSchema = /* @__PURE__ */ (() => z.enum(CONSENT_METHODS))();
export type ConsentMethod = z.infer<typeof consentMethodSchema>;

export const capabilitiesSchema = /* @__PURE__ */ (() =>
  z.object({
    countryCode: z.string().min(2),
    operator: z.string().min(1),
    modes: z.array(paymentModeSchema),
    consentMethods: z.array(consentMethodSchema),
    operatorConsentPage: z.boolean(),
    instruments: z.array(z.string()),
  }))();
export type Capabilities = z.infer<typeof capabilitiesSchema>;

export const capabilitiesQuerySchema = /* @__PURE__ */ (() =>
  z.strictObject({
    countryCode: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code such as "TN"'),
    operator: z.string().min(1).optional(),
  }))();
export type CapabilitiesQuery = z.infer<typeof capabilitiesQuerySchema>;
