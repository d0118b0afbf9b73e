import { isExpectedCheckoutUrl } from './checkout-url.js';

/** The longest received URL kept: what the service gave is shown to an operator, not stored whole. */
const MAX_KEPT_URL_LENGTH = 300;

/** The last checkout URL the checkout route refused, as an operator needs it to fix the configuration. */
export interface RefusedCheckoutUrl {
  readonly at: string;
  readonly paymentUid: string;
  /** What the service gave (cut to 300 characters). */
  readonly receivedUrl: string;
  /**
   * The checkout host the received URL names when it has the spec's shape (`{host}/c/{paymentUid}`
   * over https, http on loopback): then the configured host is the likely mistake, and this is
   * the value to set. Null when the URL itself is wrong (another path, another scheme).
   */
  readonly receivedCheckoutHost: string | null;
  /** `checkoutBaseUrl` (`DCB_CHECKOUT_BASE_URL`) as configured; null when none is. */
  readonly configuredCheckoutHost: string | null;
  /** Whether the payment the buyer could not be sent to was cancelled at the service. */
  readonly canceled: boolean;
}

/** The checkout route's refused checkout URLs since the process started (`kit.routes.checkoutHealth()`). */
export interface CheckoutHealth {
  /** When counting started. */
  readonly since: string;
  /** Checkouts answered 502 because the service's checkout URL was not on the checkout host. */
  readonly refusedUrls: number;
  readonly lastRefused: RefusedCheckoutUrl | null;
}

export interface CheckoutRefusals {
  record(
    refusal: Omit<RefusedCheckoutUrl, 'at' | 'receivedCheckoutHost' | 'receivedUrl'> & {
      receivedUrl: unknown;
    },
  ): RefusedCheckoutUrl;
  snapshot(): CheckoutHealth;
}

export function createCheckoutRefusals(now: () => Date = () => new Date()): CheckoutRefusals {
  const since = now().toISOString();
  let refusedUrls = 0;
  let lastRefused: RefusedCheckoutUrl | null = null;
  return {
    record({ paymentUid, receivedUrl, configuredCheckoutHost, canceled }) {
      const text = typeof receivedUrl === 'string' ? receivedUrl : String(receivedUrl);
      refusedUrls += 1;
      lastRefused = {
        at: now().toISOString(),
        paymentUid,
        receivedUrl: text.length > MAX_KEPT_URL_LENGTH ? `${text.slice(0, MAX_KEPT_URL_LENGTH)}…` : text,
        receivedCheckoutHost: checkoutHostOf(receivedUrl, paymentUid),
        configuredCheckoutHost,
        canceled,
      };
      return lastRefused;
    },
    snapshot: () => ({ since, refusedUrls, lastRefused }),
  };
}

/** `https://pay.example/c/pay_1` → `https://pay.example`, when the URL has the spec's shape; else null. */
export function checkoutHostOf(value: unknown, paymentUid: string): string | null {
  if (!isExpectedCheckoutUrl(value, paymentUid, undefined)) return null;
  const url = new URL(value as string);
  const suffix = `/c/${encodeURIComponent(paymentUid)}`;
  return `${url.origin}${url.pathname.slice(0, -suffix.length)}`;
}
