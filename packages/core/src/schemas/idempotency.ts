import * as z from 'zod';

// Built in pure calls, zod imported as a namespace, so that bundlers can drop them: see index.ts.

export const IDEMPOTENCY_KEY_MIN_LENGTH = 8;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** `Idempotency-Key` header of `POST /v1/payments`: 8 to 255 characters. */
export const idempotencyKeySchema = /* @__PURE__ */ (() =>
  z
    .string()
    .min(IDEMPOTENCY_KEY_MIN_LENGTH, `at least ${IDEMPOTENCY_KEY_MIN_LENGTH} characters`)
    .max(IDEMPOTENCY_KEY_MAX_LENGTH, `at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`))();

export function isValidIdempotencyKey(key: unknown): key is string {
  return idempotencyKeySchema.safeParse(key).success;
}
