import { isCrossSiteRequest } from '@dcbkit/core/node';
import type { Middleware } from 'koa';

/**
 * Refuses a form post a browser says came from another site, for the shop's own forms that carry
 * no form token (sign-in, sign-out): another site must not sign a visitor in or out. The kit's
 * routes (checkout, cancel, resume) check this themselves, and their form token on top.
 */
export function sameOriginOnly(allowedOrigin: string): Middleware {
  const allowed = new Set([allowedOrigin]);
  return async (ctx, next) => {
    // ctx.get answers '' for a missing header; the check needs undefined for "not sent".
    const request = {
      origin: ctx.get('origin') || undefined,
      secFetchSite: ctx.get('sec-fetch-site') || undefined,
    };
    if (isCrossSiteRequest(request, allowed)) {
      ctx.status = 403;
      ctx.type = 'text';
      ctx.body = 'This request came from another site; it was refused.';
      return;
    }
    await next();
  };
}

/** A path of this site to go back to: never another site (`//evil.example`, `https://…`). */
export function localPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return fallback;
  }
  return value;
}
