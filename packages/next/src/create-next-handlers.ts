import {
  checkGateOptions,
  checkRouteHandlerOptions,
  createFetchRoutes,
  type FetchAccessGate,
  type FetchRouteHandler,
  type FetchRoutes,
  type FetchRoutesOptions,
  type PartnerRouteHandlers,
  type PartnerRoutes,
  type WebhookHandler,
} from '@dcbkit/core/web';
import { createNextWebhook } from './create-next-webhook.js';
import { madeOnFirstUse } from './made-on-first-use.js';
import { assertMaker, type NextRouteHandler, paramsOf } from './next-route.js';

/** What the handlers use of a kit: createDcbKit's result is one. */
export interface NextKit {
  routes: PartnerRoutes;
  webhook: WebhookHandler;
}

export interface NextHandlersOptions<Kit extends NextKit = NextKit>
  extends Omit<FetchRoutesOptions, 'routes'> {
  /**
   * Makes the kit (`() => createDcbKit({ ...configFromEnv(process.env), offers, returnUrl })`), at
   * the first request that needs it and once: never when Next.js imports the module, so `next
   * build` works without the DCB_* variables. It may be async (a store that connects first).
   */
  kit: () => Kit | Promise<Kit>;
}

/** The handlers, each an App Router route handler; `requireAccess` gives a gate; `kit()` the kit itself. */
export interface NextHandlers<Kit extends NextKit = NextKit>
  extends PartnerRouteHandlers<NextRouteHandler, FetchRoutesOptions['signedInAccount'], FetchAccessGate> {
  /** POST: the service's webhooks (createNextWebhook over the kit's handler). */
  webhook(): NextRouteHandler;
  /** The kit, made at the first call: for a page that needs it (a form token, an offers list). */
  kit(): Promise<Kit>;
}

/**
 * dcbkit's route handlers for the App Router, over `@dcbkit/core/web`, with the kit made on first
 * use. Export each from its `route.ts`; a dynamic segment's name is the route's param
 * (`app/subscriptions/[subscriptionUid]/cancel/route.ts`). Every decision is core's
 * (createPartnerRoutes): POST only for what changes something, the cross-site check and form
 * token, 413 and 408 for bodies. `requireAccess(productUid)(request)` gives undefined to let the
 * request through, or the Response to answer, in a route handler or a middleware.
 *
 * The kit's routes use node's crypto: mount these on the Node runtime (the default). Only the
 * webhook runs on the Edge runtime too, with a store it can reach there (createNextWebhook).
 *
 * @example
 * // lib/dcb.ts
 * export const dcb = createNextHandlers({
 *   kit: () => createDcbKit({ ...configFromEnv(process.env), offers, returnUrl }),
 *   signedInAccount: async () => (await auth())?.user?.id,
 * });
 * // app/webhooks/dcb/route.ts:           export const POST = dcb.webhook();
 * // app/billing/checkout/route.ts:        export const POST = dcb.checkout();
 * // app/billing/return/route.ts:          export const GET = dcb.returnPage();
 */
export function createNextHandlers<Kit extends NextKit>(
  options: NextHandlersOptions<Kit>,
): NextHandlers<Kit> {
  // Checked now, at import: the routes themselves are made at the first request.
  checkRouteHandlerOptions('createNextHandlers', options, { routesFrom: 'kit' });
  const { kit: makeKit, ...routeOptions } = options;
  assertMaker(
    'createNextHandlers({ kit })',
    makeKit,
    'a function that makes the kit: () => createDcbKit(...)',
  );
  const kit = madeOnFirstUse(makeKit);
  const fetchRoutes = madeOnFirstUse(async () =>
    createFetchRoutes({ ...routeOptions, routes: (await kit()).routes }),
  );
  /** One of createFetchRoutes' handlers, made with the routes at the first request. */
  const route = (pick: (routes: FetchRoutes) => FetchRouteHandler): NextRouteHandler => {
    const handler = madeOnFirstUse(async () => pick(await fetchRoutes()));
    return async (request, context) => (await handler())(request, await paramsOf(context));
  };
  return {
    kit,
    webhook: () => createNextWebhook(async () => (await kit()).webhook),
    checkout: () => route((routes) => routes.checkout()),
    returnPage: () => route((routes) => routes.returnPage()),
    cancelPayment: () => route((routes) => routes.cancelPayment()),
    spendUnit: () => route((routes) => routes.spendUnit()),
    cancelSubscription: () => route((routes) => routes.cancelSubscription()),
    resumeSubscription: () => route((routes) => routes.resumeSubscription()),
    requireAccess: (productUid, gate) => {
      checkGateOptions('requireAccess', gate);
      const check = madeOnFirstUse(async () => (await fetchRoutes()).requireAccess(productUid, gate));
      return async (request) => (await check())(request);
    },
  };
}
