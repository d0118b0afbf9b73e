import type { PartnerRouteHandlers } from '@dcbkit/core/web';
import type { ShopAnswer } from './shop-answer.js';
import type { ShopRequest } from './shop-request.js';

/**
 * A page or a check before it: an answer ends the request; undefined lets it go on (to the page
 * after a check, to the next route, at last to the not-found page).
 */
export type Handler = (request: ShopRequest) => ShopAnswer | undefined | Promise<ShopAnswer | undefined>;

/** The kit's routes, which the framework's dcbkit adapter runs (createExpressRoutes, createKoaRoutes…). */
export type KitRouteName = Exclude<keyof PartnerRouteHandlers<unknown, unknown>, 'requireAccess'>;

/**
 * One route of the shop, as data: the framework's part of the app mounts each in order, with the
 * framework's router, so that every framework serves the same routes with the same checks.
 */
export interface ShopRoute {
  /** ALL: any method (a whole area that is turned off, say). */
  method: 'GET' | 'POST' | 'ALL';
  /** Express and @koa/router syntax (path-to-regexp 8): `/account/:uid`, `/ops{/*rest}`. */
  path: string;
  /** Checks before the page, in order (sign-in, same-origin): the first that answers ends the request. */
  guards?: readonly Handler[];
  /** The kit's access gate for this product (the adapter's `requireAccess`), after the guards. */
  requiresAccessTo?: string;
  /** The shop's own page, or the name of the kit's route the adapter runs here. */
  handle: Handler | KitRouteName;
}
