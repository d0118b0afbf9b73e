import { isLoopbackHost } from '../http/is-loopback.js';

/**
 * True when `value` is the checkout URL the spec says the service gives for this payment:
 * `{checkout host}/c/{paymentUid}`, over https (http only on a loopback host, as the embedded
 * sandbox serves it), without credentials, and on `checkoutBaseUrl` when the app configured the
 * environment's checkout host. Whatever else an answer carries (`javascript:`, `data:`, another
 * host) must never reach a Location header or an iframe's `src`.
 */
export function isExpectedCheckoutUrl(
  value: unknown,
  paymentUid: string,
  checkoutBaseUrl: URL | undefined,
): boolean {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const url = new URL(value);
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!secure || url.username !== '' || url.password !== '') return false;
  const base = checkoutBaseUrl ?? new URL(url.origin);
  if (url.origin !== base.origin) return false;
  return url.pathname === `${base.pathname.replace(/\/+$/, '')}/c/${encodeURIComponent(paymentUid)}`;
}
