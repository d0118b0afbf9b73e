/**
 * Schemes whose URLs run script in the page that opens them: a checkout that sent the browser there
 * would run whatever the URL carries on the checkout host.
 */
const SCRIPT_SCHEMES: ReadonlySet<string> = new Set(['javascript:', 'data:', 'vbscript:']);

/**
 * Whether a `returnUrl` is one the service takes. The spec types it `uri`: any absolute URI, an
 * app's deep link (`myapp://done`) included, except the schemes that carry script. A relative URL
 * is not absolute, so it is refused too.
 */
export function isAcceptedReturnUrl(value: unknown): value is string {
  return typeof value === 'string' && URL.canParse(value) && !SCRIPT_SCHEMES.has(new URL(value).protocol);
}

/** The return URL's web origin, or null for a deep link (`myapp://done` has no origin to talk to). */
export function webOriginOf(returnUrl: string): string | null {
  const url = new URL(returnUrl);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
}
