import { httpStatusOf } from '../errors/code-groups.js';
import type { HttpAnswer } from '../http/http-answer.js';
import { isRouteError } from './route-error.js';
import type { RouteResult } from './route-result.js';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

/** A route's result as HTTP: 303 to the checkout, or the view as JSON. */
export function answerForResult(result: RouteResult): HttpAnswer {
  if (result.type === 'redirect')
    return { status: result.status, headers: { location: result.location }, body: undefined };
  return { status: result.status, headers: { ...JSON_TYPE }, body: JSON.stringify(result.view) };
}

/**
 * A route's refusal as HTTP: small JSON with the code and the sentence, no stack, no upstream
 * detail. Undefined for anything else, which goes to the app's own error handling.
 */
export function answerForError(error: unknown): HttpAnswer | undefined {
  if (!isRouteError(error)) return undefined;
  const headers: Record<string, string> = { ...JSON_TYPE };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.code === 'method_not_allowed') headers.allow = 'POST';
  const body = JSON.stringify({ error: { code: error.code, message: error.message } });
  return { status: httpStatusOf(error.code), headers, body };
}

export interface AccessDeniedOptions {
  /** Send the browser here (your offers page) instead of answering 403. */
  redirectTo?: string | undefined;
  productUid: string;
}

const FORBIDDEN_BODY = (productUid: string) =>
  JSON.stringify({
    error: { code: 'access_required', message: 'This needs an active purchase.', productUid },
  });

/** What the access gate answers when the account has no access: 403, or 303 to the offers page. */
export function answerForDeniedAccess({ redirectTo, productUid }: AccessDeniedOptions): HttpAnswer {
  if (redirectTo !== undefined) {
    const separator = redirectTo.includes('?') ? '&' : '?';
    const location = `${redirectTo}${separator}product=${encodeURIComponent(productUid)}`;
    return { status: 303, headers: { location }, body: undefined };
  }
  return {
    status: httpStatusOf('access_required'),
    headers: { ...JSON_TYPE },
    body: FORBIDDEN_BODY(productUid),
  };
}
