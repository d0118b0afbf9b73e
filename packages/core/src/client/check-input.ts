import type { z } from 'zod';
import { SERVICE_ERROR_CODES } from '../schemas/api-error-codes.js';
import type { RequestIssue, RequestIssueCode } from '../schemas/create-payment.js';
import { DcbApiError } from './errors.js';

const ISSUE_RANK: Record<RequestIssueCode, number> = { 'VAL-006': 0, 'VAL-001': 1, 'VAL-002': 2 };

/**
 * The error for input the service would refuse, thrown before anything is sent. It carries the
 * code the service would answer (the most specific issue's), so one `catch` handles both.
 */
export function refusedBeforeSending(
  issues: readonly RequestIssue[],
  method: string,
  path: string,
): DcbApiError {
  const sorted = [...issues].sort((a, b) => ISSUE_RANK[a.code] - ISSUE_RANK[b.code]);
  const first = sorted[0];
  const code = first?.code ?? 'VAL-002';
  return new DcbApiError({
    code,
    httpStatus: SERVICE_ERROR_CODES[code].httpStatus,
    message: `Not sent: ${sorted.map((issue) => issue.message).join('; ')}.`,
    retryable: false,
    source: 'client',
    issues: sorted,
    method,
    path,
  });
}

/** Parses `input` with `schema`, or throws the VAL-coded refusal (unknown key VAL-006, missing VAL-001, else VAL-002). */
export function checkInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: { method: string; path: string; name: string },
): z.output<S> {
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.flatMap((issue): RequestIssue[] => {
    const dotted = (...parts: PropertyKey[]) => [where.name, ...parts.map(String)].filter(Boolean).join('.');
    const path = dotted(...issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        code: 'VAL-006',
        path: dotted(...issue.path, key),
        message: `unknown property ${dotted(...issue.path, key)}`,
      }));
    }
    const missing =
      (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined;
    return [{ code: missing ? 'VAL-001' : 'VAL-002', path, message: `${path || 'input'}: ${issue.message}` }];
  });
  throw refusedBeforeSending(issues, where.method, where.path);
}

/**
 * An opaque identifier for a path segment: a non-empty string. `.` and `..` are refused because a
 * URL resolves them to another route.
 */
export function checkUid(value: unknown, where: { method: string; path: string; name: string }): string {
  const fail = (code: RequestIssueCode, message: string) =>
    refusedBeforeSending(
      [{ code, path: where.name, message: `${where.name} ${message}` }],
      where.method,
      where.path,
    );
  if (value === undefined || value === '') throw fail('VAL-001', 'is required');
  if (typeof value !== 'string') throw fail('VAL-002', 'must be a string');
  if (value === '.' || value === '..') throw fail('VAL-002', 'is not an identifier');
  return value;
}
