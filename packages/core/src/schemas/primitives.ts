import * as z from 'zod';

// Built in pure calls, zod imported as a namespace, so that bundlers can drop them: see index.ts.

/** ISO 8601 date-time. The spec promises UTC; an explicit offset is tolerated on reads. */
export const timestampSchema = /* @__PURE__ */ (() => z.iso.datetime({ offset: true }))();

/** Money in minor units of its currency (TND: millimes, 1 TND = 1000). */
export const moneySchema = /* @__PURE__ */ (() =>
  z.object({
    amount: z.number().int(),
    currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as "TND"'),
  }))();
export type Money = z.infer<typeof moneySchema>;

export type Metadata = Record<string, unknown>;

/** The partner's correlation data as sent on a create request: a JSON object. */
export const metadataSchema = /* @__PURE__ */ (() => z.record(z.string(), z.unknown()))();

function isPlainObject(value: unknown): value is Metadata {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Metadata as echoed on reads and webhooks: the partner's own opaque data, so only its shape
 * (an object) is checked. A full record check costs a third of a webhook's validation time.
 */
export const echoedMetadataSchema = /* @__PURE__ */ (() => z.custom<Metadata>(isPlainObject, 'an object'))();

export const METADATA_MAX_KEYS = 20;
/** dcbkit's bounds (the spec gives only the key count): deep or huge metadata is refused as VAL-002. */
export const METADATA_MAX_DEPTH = 5;
export const METADATA_MAX_BYTES = 8 * 1024;

/**
 * What is wrong with metadata beyond its key count, or undefined. Walks without recursion, so a
 * body nested thousands deep is refused here instead of overflowing the stack later.
 */
export function metadataProblem(metadata: Metadata): string | undefined {
  const pending: Array<{ value: unknown; depth: number }> = [{ value: metadata, depth: 1 }];
  while (pending.length > 0) {
    const { value, depth } = pending.pop() as { value: unknown; depth: number };
    if (typeof value !== 'object' || value === null) continue;
    if (depth > METADATA_MAX_DEPTH) return `nested more than ${METADATA_MAX_DEPTH} levels deep`;
    for (const child of Object.values(value)) pending.push({ value: child, depth: depth + 1 });
  }
  const bytes = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  return bytes > METADATA_MAX_BYTES ? `larger than ${METADATA_MAX_BYTES} bytes as JSON` : undefined;
}

/** E.164: a plus sign, a non-zero digit, at most 15 digits in all. */
export const e164Schema = /* @__PURE__ */ (() =>
  z.string().regex(/^\+[1-9][0-9]{1,14}$/, 'an E.164 number such as "+21620000000"'))();
