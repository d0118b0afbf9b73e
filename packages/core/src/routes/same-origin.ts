import { routeError } from './route-error.js';
import { mediaTypeOf } from './route-fields.js';

/** What a state-changing route needs to know of the request to refuse a cross-site one. */
export interface RequestOrigin {
  /** The `Origin` header. */
  origin?: string | undefined;
  /** The `Sec-Fetch-Site` header. */
  secFetchSite?: string | undefined;
  /** True for the body types a page of another site can post without a preflight (forms, text). */
  simpleBody?: boolean | undefined;
}

/**
 * True when a browser says the request came from another site. Every current browser sends
 * `Sec-Fetch-Site`, and it is trusted first: `Origin` may read `null` on a same-origin form post
 * under `Referrer-Policy: no-referrer`. Without it, `Origin` decides (`null` then counts as another
 * site). A request with neither is not a browser's cross-site request (a server, a test, a very
 * old browser): the form token still guards form posts.
 */
export function isCrossSiteRequest(
  request: RequestOrigin | undefined,
  allowedOrigins: ReadonlySet<string>,
): boolean {
  const origin = request?.origin || undefined;
  const site = request?.secFetchSite?.toLowerCase();
  if (site !== undefined) {
    if (site === 'same-origin' || site === 'none') return false;
    return !(origin !== undefined && allowedOrigins.has(origin));
  }
  return origin !== undefined && !allowedOrigins.has(origin);
}

/** Throws `cross_site_request` for what isCrossSiteRequest refuses. */
export function assertSameOrigin(
  request: RequestOrigin | undefined,
  allowedOrigins: ReadonlySet<string>,
): void {
  if (isCrossSiteRequest(request, allowedOrigins)) {
    throw routeError('cross_site_request', 'This request came from another site; it was refused.');
  }
}

// The body types a page of another site can post without a CORS preflight.
const SIMPLE_BODY_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/** A request's origin as its headers tell it; `header` gives a header's value by lowercase name. */
export function requestOriginOf(header: (name: string) => string | undefined): RequestOrigin {
  return {
    origin: header('origin'),
    secFetchSite: header('sec-fetch-site'),
    simpleBody: SIMPLE_BODY_TYPES.has(mediaTypeOf(header('content-type'))),
  };
}
