import type { RequestListener } from 'node:http';
import type { Billing } from './billing.js';
import type { ShopLogger } from './logger.js';
import type { OperatorAccess } from './ops/operator-password.js';
import { accountRoutes } from './routes/account.js';
import { authRoutes } from './routes/auth.js';
import { chartLibraryRoutes } from './routes/chart-library.js';
import { checkoutRoutes } from './routes/checkout.js';
import { healthRoutes } from './routes/health.js';
import { kitRouteHooks } from './routes/kit-views.js';
import { languageRoutes } from './routes/language.js';
import { offersRoutes } from './routes/offers.js';
import { opsRoutes } from './routes/ops.js';
import { premiumRoutes } from './routes/premium.js';
import { staticFileRoutes } from './routes/static-files.js';
import { securityHeaderOptions } from './security-headers.js';
import type { SessionCookie } from './session.js';
import { createViews } from './views.js';
import type { ShopAnswer } from './web/shop-answer.js';
import type { ShopRequest } from './web/shop-request.js';
import type { ShopRoute } from './web/shop-route.js';

export interface ShopAppOptions {
  billing: Billing;
  /** The address browsers use for the shop (its origin is the only one allowed to post forms). */
  publicUrl: string;
  sessionSecret: string;
  trustProxy: number;
  logger: ShopLogger;
  /** The operations view's password (/ops); undefined turns the view off. */
  operatorAccess?: OperatorAccess | undefined;
}

/** What src/framework/<name>/create-shop-app.ts exports: the whole shop as Node's request listener. */
export type CreateShopApp = (options: ShopAppOptions) => RequestListener;

/** The largest form the pages post (sign-in, checkout, cancel…): a few short fields. */
export const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * Everything the framework's part of the app mounts, in the order it mounts it:
 * 1. `probes`: the load balancer's, before the request log, the session and sign-in;
 * 2. the request log, then the webhook (`WEBHOOK_PATH`, on the raw body: before any body parser);
 * 3. the security headers (`securityHeaders`, helmet's options), then `assets` (public/);
 * 4. the session cookie (`session`), the form parser (`FORM_LIMIT_BYTES`), then `pages`, whose
 *    kit routes run on the framework's dcbkit adapter made with `kitHooks`;
 * 5. `notFound` when no route answered, `failed` when one threw.
 */
export function assembleShop({ billing, publicUrl, sessionSecret, logger, operatorAccess }: ShopAppOptions) {
  const { kit, checkoutBaseUrl } = billing;
  const publicOrigin = new URL(publicUrl).origin;
  const https = new URL(publicUrl).protocol === 'https:';
  // The service's sandbox environment moves no money, whether embedded or a process of its own.
  // The embedded sandbox answers readiness as the emulator; where production was expected (a demo
  // allowed by ALLOW_EMBEDDED_SANDBOX), every page's banner says so too.
  const emulator = billing.sandbox !== undefined;
  const views = createViews({
    kit,
    sandbox: kit.client.environment === 'sandbox',
    emulator: billing.emulatorInProduction === true,
  });

  const pages: ShopRoute[] = [
    ...languageRoutes(),
    ...authRoutes({ views, shopOrigin: publicOrigin }),
    ...offersRoutes({ kit, views, embedded: checkoutBaseUrl !== undefined }),
    ...checkoutRoutes(),
    ...accountRoutes({ kit, views }),
    ...premiumRoutes({ views }),
    ...opsRoutes({
      kit,
      views,
      reconciler: billing.reconciler,
      shopOrigin: publicOrigin,
      access: operatorAccess,
      logger,
    }),
  ];
  const session: SessionCookie = { secret: sessionSecret, secure: https };

  return {
    kit,
    probes: healthRoutes({ kit, logger, emulator }),
    securityHeaders: securityHeaderOptions({ checkoutBaseUrl, https }),
    // Chart.js only where the operations view is on: with it off, nothing under /ops is served.
    assets: [...staticFileRoutes(), ...(operatorAccess === undefined ? [] : chartLibraryRoutes())],
    session,
    pages,
    kitHooks: kitRouteHooks(views),
    /** No route answered: a page in the visitor's language rather than the framework's plain "Not Found". */
    notFound: (request: ShopRequest): ShopAnswer =>
      views.render(request, 'error', { kind: 'error.notFound' }, 404),
    /** A route threw: the log has the detail; the page never shows a stack or a message from the inside. */
    failed: (request: ShopRequest, error: unknown): ShopAnswer => {
      logger.error({ err: error, req: { method: request.method, url: request.url } }, 'request failed');
      return views.render(request, 'error', { kind: 'error.generic' }, 500);
    },
  };
}

export type ShopParts = ReturnType<typeof assembleShop>;
