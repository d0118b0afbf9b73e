import { routeError } from './route-error.js';

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
 * Refuses a request that a browser says came from another site. Browsers send `Sec-Fetch-Site`
 * (all current ones) or at least `Origin` on every cross-origin POST; a request with neither is
 * not a browser's cross-site request (a server, a test, a very old browser) and passes here: the
 * form token still guards form posts.
 */
export function assertSameOrigin(
  request: RequestOrigin | undefined,
  allowedOrigins: ReadonlySet<string>,
): void {
  const site = request?.secFetchSite?.toLowerCase();
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    if (!(request?.origin && allowedOrigins.has(request.origin))) throw crossSite();
  }
  const origin = request?.origin;
  if (origin !== undefined && origin !== '' && !allowedOrigins.has(origin)) throw crossSite();
}

function crossSite() {
  return routeError('cross_site_request', 'This request came from another site; it was refused.');
}
