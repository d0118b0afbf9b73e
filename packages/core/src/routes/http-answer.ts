import { RouteError } from './route-error.js';
import type { RouteResult } from './route-result.js';

/** A framework-neutral HTTP answer: adapters write the status, the headers and the body as they are. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** JSON text, or undefined for a bodyless redirect. */
  body: string | undefined;
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

/** A route's result as HTTP: 303 to the checkout, or the view as JSON. */
export function answerForResult(result: RouteResult): HttpAnswer {
  if (result.type === 'redirect')
    return { status: result.status, headers: { location: result.location }, body: undefined };
  return { status: result.status, headers: { ...JSON_TYPE }, body: JSON.stringify(result.view) };
}

/** A route's refusal as HTTP; undefined for anything that is not a RouteError (let the app's error handling have it). */
export function answerForError(error: unknown): HttpAnswer | undefined {
  if (!(error instanceof RouteError)) return undefined;
  const headers: Record<string, string> = { ...JSON_TYPE };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return { status: error.httpStatus, headers, body: JSON.stringify(error.toJSON()) };
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
  return { status: 403, headers: { ...JSON_TYPE }, body: FORBIDDEN_BODY(productUid) };
}
