import { isCrossSiteRequest } from '@dcbkit/core/node';
import { textAnswer } from '../web/shop-answer.js';
import type { Handler } from '../web/shop-route.js';

/**
 * Refuses a form post a browser says came from another site, for the shop's own forms that carry
 * no form token (sign-in, sign-out): another site must not sign a visitor in or out. The kit's
 * routes (checkout, cancel, resume) check this themselves, and their form token on top.
 */
export function sameOriginOnly(allowedOrigin: string): Handler {
  const allowed = new Set([allowedOrigin]);
  return (request) => {
    const sent = { origin: request.header('origin'), secFetchSite: request.header('sec-fetch-site') };
    if (!isCrossSiteRequest(sent, allowed)) return undefined;
    return textAnswer(403, 'This request came from another site; it was refused.');
  };
}

/** A path of this site to go back to: never another site (`//evil.example`, `https://…`). */
export function localPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return fallback;
  }
  return value;
}
