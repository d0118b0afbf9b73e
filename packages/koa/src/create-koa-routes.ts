import { runPartnerRoute } from '@dcbkit/core/node';
import type { PartnerRouteHandlers, RouteHandlerOptions } from '@dcbkit/core/web';
import {
  checkRouteHandlerOptions,
  gateAnswer,
  partnerRouteHandlers,
  writeRouteOutcome,
} from '@dcbkit/core/web';
import type { Context, Middleware, Next } from 'koa';
import { writeAnswer } from './write-answer.js';

/** createKoaRoutes' options: `render` and `renderError` get the context, and write to it. */
export interface KoaRoutesOptions extends RouteHandlerOptions<Context, void | Promise<void>> {}

/** The route handlers, each ready to mount. */
export type KoaRoutes = PartnerRouteHandlers<Middleware, KoaRoutesOptions['signedInAccount']>;

/**
 * Checkout, return, subscription cancel/resume and the access gate as Koa middleware (for
 * @koa/router). Every decision is core's (createPartnerRoutes); these only collect fields and
 * write answers.
 *
 * @example
 * const dcb = createKoaRoutes({ routes, signedInAccount: (ctx) => ctx.state.user?.id });
 * router.post('/checkout', dcb.checkout());
 * router.get('/return', dcb.returnPage());
 * router.post('/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
 * router.get('/premium', dcb.requireAccess('premium'), showPremium);
 */
export function createKoaRoutes(options: KoaRoutesOptions): KoaRoutes {
  checkRouteHandlerOptions('createKoaRoutes', options);
  const { routes, render, renderError } = options;
  return partnerRouteHandlers(routes, options, {
    handle: (action) => async (ctx: Context) => {
      const params = (ctx as Context & { params?: Record<string, string> }).params;
      const parsedBody = (ctx.request as { body?: unknown }).body;
      const sources = { req: ctx.req, query: ctx.query, parsedBody, params };
      const session = options.sessionId?.(ctx);
      const outcome = await runPartnerRoute(action, options.signedInAccount(ctx), { ...sources, session });
      await writeRouteOutcome(outcome, {
        render: render && ((view) => render(view, ctx)),
        renderError:
          renderError &&
          ((refusal, headers) => {
            ctx.set(headers);
            return renderError(refusal, ctx);
          }),
        answer: (answer) => writeAnswer(ctx, answer),
      });
    },
    gate: (productUid, signedInAccount, redirectTo) => async (ctx: Context, next: Next) => {
      const denied = await gateAnswer(routes, signedInAccount(ctx), productUid, redirectTo);
      if (denied) writeAnswer(ctx, denied);
      else await next();
    },
  });
}
