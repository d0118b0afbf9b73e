import { isCrossSiteRequest } from '@dcbkit/core/node';
import type { RequestHandler } from 'express';

/**
 * Refuses a form post a browser says came from another site, for the shop's own forms that carry
 * no form token (sign-in, sign-out): another site must not sign a visitor in or out. The kit's
 * routes (checkout, cancel, resume) check this themselves, and their form token on top.
 */
export function sameOriginOnly(allowedOrigin: string): RequestHandler {
  const allowed = new Set([allowedOrigin]);
  return (req, res, next) => {
    const request = { origin: req.get('origin'), secFetchSite: req.get('sec-fetch-site') };
    if (isCrossSiteRequest(request, allowed)) {
      res.status(403).type('text').send('This request came from another site; it was refused.');
      return;
    }
    next();
  };
}

/** A path of this site to go back to: never another site (`//evil.example`, `https://…`). */
export function localPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return fallback;
  }
  return value;
}
