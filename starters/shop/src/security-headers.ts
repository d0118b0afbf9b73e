export interface SecurityOptions {
  /** The checkout host of the environment: the only page the embedded checkout frame may load, and where checkout forms redirect. */
  checkoutBaseUrl: string | undefined;
  /** False only when the shop is served over plain http on this machine. */
  https: boolean;
}

/**
 * helmet's options (src/framework/ passes them to helmet, or to its framework's wrapper of it):
 * a Content-Security-Policy that allows this shop's own scripts and styles only (no inline ones),
 * and frames and form redirects to the environment's checkout host only, where consent happens
 * and nowhere else; HSTS over https.
 */
export function securityHeaderOptions({ checkoutBaseUrl, https }: SecurityOptions) {
  const checkoutOrigin = checkoutBaseUrl ? new URL(checkoutBaseUrl).origin : undefined;
  return {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        // The embedded checkout is an iframe of the checkout host.
        frameSrc: checkoutOrigin ? [checkoutOrigin] : ["'none'"],
        // Checkout forms post here and are redirected (303) to the checkout host.
        formAction: checkoutOrigin ? ["'self'", checkoutOrigin] : ["'self'"],
        frameAncestors: ["'self'"],
        // Over plain http on this machine there is nothing to upgrade to.
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    strictTransportSecurity: https,
    // Not helmet's "no-referrer": with it, browsers send `Origin: null` on form posts, and the kit
    // (rightly) refuses a post whose origin it cannot check. "same-origin" still sends nothing to
    // other sites, so the return page's address never leaks.
    referrerPolicy: { policy: 'same-origin' as const },
  };
}
