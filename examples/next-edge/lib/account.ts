/**
 * The signed-in account of a request: here a cookie `account=<id>`, standing in for your session
 * (Auth.js's `auth()`, iron-session…). The billing routes and the entitlement report ask it.
 */
export function signedInAccount(request: Request): string | undefined {
  const cookie = /(?:^|;\s*)account=([^;]*)/.exec(request.headers.get('cookie') ?? '');
  return cookie?.[1] ? decodeURIComponent(cookie[1]) : undefined;
}
