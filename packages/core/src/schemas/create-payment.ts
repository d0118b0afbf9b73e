import * as z from 'zod';
import { e164Schema, METADATA_MAX_KEYS, metadataProblem, metadataSchema } from './primitives.js';
import { isAcceptedReturnUrl } from './return-url.js';

// Built in pure calls, zod imported as a namespace, so that bundlers can drop them: see index.ts.

export const presentationSchema = /* @__PURE__ */ (() => z.enum(['redirect', 'embedded']))();
export type Presentation = z.infer<typeof presentationSchema>;

export const prefillSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    msisdn: e164Schema.optional(),
    /** Default true. When false the number is locked on checkout and `msisdn` is required. */
    msisdnEditable: z.boolean().optional(),
  }))();

/**
 * Body of `POST /v1/payments`. In hosted mode the request only names the offer: price,
 * currency, period and trial come from the offer, the notify address from the console.
 */
export const createPaymentRequestSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      mode: z.literal('HOSTED'),
      offerUid: z.string().min(1),
      // The spec's `uri`: an absolute URI (a web page or an app's deep link), never one that runs script.
      returnUrl: z.string().refine(isAcceptedReturnUrl, {
        message:
          'must be an absolute URI (https://…, or an app scheme), never javascript:, data: or vbscript:',
      }),
      presentation: presentationSchema.optional(),
      prefill: prefillSchema.optional(),
      /** A hint; it cannot select an operator the offer is not sold on. */
      operator: z.string().min(1).optional(),
      metadata: metadataSchema
        .refine((value) => Object.keys(value).length <= METADATA_MAX_KEYS, {
          message: `at most ${METADATA_MAX_KEYS} keys`,
        })
        .superRefine((value, ctx) => {
          const problem = metadataProblem(value);
          if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
        })
        .optional(),
    })
    .superRefine((request, ctx) => {
      if (request.prefill?.msisdnEditable === false && request.prefill.msisdn === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['prefill', 'msisdn'],
          message: 'prefill.msisdn is required when prefill.msisdnEditable is false',
          params: { missing: true },
        });
      }
    }))();
export type CreatePaymentRequest = z.infer<typeof createPaymentRequestSchema>;

/**
 * Properties the spec names as forbidden in hosted mode, with why. Rejected with VAL-006.
 */
export const FORBIDDEN_CREATE_PAYMENT_PROPERTIES = {
  amount: 'the price comes from the offer',
  msisdn: 'a number alone is never consent; use prefill.msisdn',
  productUid: 'the product is derived from the offer',
  notifyUrl: 'the webhook URL is set per environment in the console',
} as const;

const REQUIRED_PROPERTIES = ['mode', 'offerUid', 'returnUrl'] as const;

export type RequestIssueCode = 'VAL-001' | 'VAL-002' | 'VAL-006';

export interface RequestIssue {
  /** The spec's error code for this issue: VAL-001 missing, VAL-002 invalid, VAL-006 unknown or forbidden. */
  code: RequestIssueCode;
  /** Dotted path of the offending property, e.g. `prefill.msisdn`. */
  path: string;
  message: string;
}

export type RequestCheck<T> = { ok: true; value: T } | { ok: false; issues: RequestIssue[] };

const ISSUE_RANK: Record<RequestIssueCode, number> = { 'VAL-006': 0, 'VAL-001': 1, 'VAL-002': 2 };

/**
 * Checks a create-payment body the way the service does, and says which VAL code each problem
 * earns. Shared by the client (which refuses before sending) and the sandbox (which answers it).
 * Issues are ordered most specific first: forbidden/unknown, then missing, then invalid.
 */
export function checkCreatePaymentRequest(input: unknown): RequestCheck<CreatePaymentRequest> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, issues: [{ code: 'VAL-002', path: '', message: 'the body must be a JSON object' }] };
  }
  const issues: RequestIssue[] = [];
  const body = input as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (Object.hasOwn(FORBIDDEN_CREATE_PAYMENT_PROPERTIES, key)) {
      const why =
        FORBIDDEN_CREATE_PAYMENT_PROPERTIES[key as keyof typeof FORBIDDEN_CREATE_PAYMENT_PROPERTIES];
      issues.push({ code: 'VAL-006', path: key, message: `${key} is not allowed in hosted mode: ${why}` });
    }
  }
  for (const key of REQUIRED_PROPERTIES) {
    if (body[key] === undefined) issues.push({ code: 'VAL-001', path: key, message: `${key} is required` });
  }
  const parsed = createPaymentRequestSchema.safeParse(input, { reportInput: true });
  if (parsed.success && issues.length === 0) return { ok: true, value: parsed.data };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    issues.push(...toRequestIssues(issue, issues));
  }
  issues.sort((a, b) => ISSUE_RANK[a.code] - ISSUE_RANK[b.code]);
  return { ok: false, issues };
}

function toRequestIssues(issue: z.core.$ZodIssue, known: RequestIssue[]): RequestIssue[] {
  const path = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys
      .map((key) => (path ? `${path}.${key}` : key))
      .filter((keyPath) => !known.some((k) => k.path === keyPath))
      .map((keyPath) => ({
        code: 'VAL-006' as const,
        path: keyPath,
        message: `unknown property ${keyPath}`,
      }));
  }
  if (known.some((k) => k.path === path)) return [];
  const missing =
    (issue.code === 'invalid_type' && issue.input === undefined) ||
    (issue.code === 'custom' && issue.params?.missing === true);
  return [{ code: missing ? 'VAL-001' : 'VAL-002', path, message: `${path || 'body'}: ${issue.message}` }];
}
