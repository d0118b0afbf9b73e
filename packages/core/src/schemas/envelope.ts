import * as z from 'zod';
import type { ServiceErrorCode } from './api-error-codes.js';

// Built in pure calls, zod imported as a namespace, so that bundlers can drop them: see index.ts.

/** `{ success: true, data }` around every success except the token endpoint. */
export function successEnvelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const ERROR_CODE_PATTERN = /^[A-Z]{3}-[0-9]{3}$/;

export const apiErrorBodySchema = /* @__PURE__ */ (() =>
  z.object({
    code: z.string().regex(ERROR_CODE_PATTERN) as z.ZodType<ServiceErrorCode | (string & {})>,
    message: z.string(),
    retryable: z.boolean().optional(),
    retryAfterSeconds: z.number().int().nonnegative().optional(),
  }))();
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

export const errorEnvelopeSchema = /* @__PURE__ */ (() =>
  z.object({
    success: z.literal(false),
    error: apiErrorBodySchema,
  }))();
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** The token endpoint answers plain JSON, without an envelope. */
export const tokenResponseSchema = /* @__PURE__ */ (() =>
  z.object({
    access_token: z.string().min(1),
    token_type: z.string().refine((value) => value.toLowerCase() === 'bearer', 'a bearer token'),
    expires_in: z.number().int().positive(),
  }))();
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
