import { verifyFormToken } from './form-token.js';
import type { RouteInput } from './partner-route-types.js';
import type { RouteContext } from './route-context.js';
import { routeError } from './route-error.js';
import { assertSameOrigin } from './same-origin.js';

/**
 * The defence of a state-changing route: POST only (a link or a navigation carries the session's
 * cookies too); a browser's cross-origin request is refused; a form post (which any site can make
 * without a preflight) must carry a form token of this account and session. A JSON post cannot be
 * sent cross-site without CORS, so it needs no token. Gives the signed-in account and the form
 * token's nonce, when there was one.
 */
export function guardStateChange(
  context: RouteContext,
  input: RouteInput,
): { account: string; nonce: string | undefined } {
  if (input.method !== undefined && input.method.toUpperCase() !== 'POST') {
    throw routeError('method_not_allowed', 'This action needs a form post.');
  }
  const account = signedIn(input.accountKey);
  assertSameOrigin(input.request, context.allowedOrigins);
  const binding = { accountKey: account, session: input.session };
  const nonce = verifyFormToken(context.formKeys, binding, input.fields.token, Date.now());
  if (input.request?.simpleBody && nonce === undefined) {
    throw routeError('cross_site_request', 'The form has expired or is not this account’s; reload the page.');
  }
  return { account, nonce };
}

/** The signed-in account, or the refusal: nobody signed in, or a key that is not well-formed text. */
export function signedIn(accountKey: string | undefined): string {
  if (typeof accountKey !== 'string' || accountKey === '') {
    throw routeError('unauthenticated', 'Sign in first.');
  }
  // A lone surrogate becomes U+FFFD once encoded as UTF-8 (in metadata, in a key digest), so two
  // accounts would share one: such a key is refused rather than silently merged.
  if (LONE_SURROGATE.test(accountKey)) {
    throw routeError('invalid_request', 'The signed-in account key is not well-formed text.');
  }
  return accountKey;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
