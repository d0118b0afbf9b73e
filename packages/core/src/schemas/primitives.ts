import { z } from 'zod';

/** ISO 8601 date-time. The spec promises UTC; an explicit offset is tolerated on reads. */
export const timestampSchema = z.iso.datetime({ offset: true });

/** Money in minor units of its currency (TND: millimes, 1 TND = 1000). */
export const moneySchema = z.object({
  amount: z.number().int(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as "TND"'),
});
export type Money = z.infer<typeof moneySchema>;

export type Metadata = Record<string, unknown>;

/** The partner's correlation data as sent on a create request: a JSON object. */
export const metadataSchema = z.record(z.string(), z.unknown());

function isPlainObject(value: unknown): value is Metadata {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Metadata as echoed on reads and webhooks: the partner's own opaque data, so only its shape
 * (an object) is checked. A full record check costs a third of a webhook's validation time.
 */
export const echoedMetadataSchema = z.custom<Metadata>(isPlainObject, 'an object');

export const METADATA_MAX_KEYS = 20;

/** E.164: a plus sign, a non-zero digit, at most 15 digits in all. */
export const e164Schema = z.string().regex(/^\+[1-9][0-9]{1,14}$/, 'an E.164 number such as "+21620000000"');
