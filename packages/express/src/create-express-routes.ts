import { runPartnerRoute } from '@dcbkit/core/node';
import type { PartnerRouteHandlers, RouteHandlerOptions } from '@dcbkit/core/web';
import {
  checkRouteHandlerOptions,
  gateAnswer,
  partnerRouteHandlers,
  writeRouteOutcome,
} from '@dcbkit/core/web';
import type { Request, RequestHandler, Response } from 'express';
import { writeAnswer } from './write-answer.js';

/** createExpressRoutes' options: `render` and `renderError` get the request and the response. */
export interface ExpressRoutesOptions
  extends RouteHandlerOptions<Request, void | Promise<void>, [res: Response]> {}

/** The route handlers, each ready to mount. */
export type ExpressRoutes = PartnerRouteHandlers<RequestHandler, ExpressRoutesOptions['signedInAccount']>;

/**
 * Checkout, return, subscription cancel/resume and the access gate as Express handlers. Every
 * decision is core's (createPartnerRoutes); these only collect fields and write answers.
 *
 * @example
 * const dcb = createExpressRoutes({ routes, signedInAccount: (req) => req.session.userId });
 * app.post('/checkout', dcb.checkout());
 * app.get('/return', dcb.returnPage());
 * app.post('/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
 * app.get('/premium', dcb.requireAccess('premium'), showPremium);
 */
export function createExpressRoutes(options: ExpressRoutesOptions): ExpressRoutes {
  checkRouteHandlerOptions('createExpressRoutes', options);
  const { routes, render, renderError } = options;
  return partnerRouteHandlers(routes, options, {
    handle: (action) => (req, res, next) => {
      const sources = { req, query: req.query, parsedBody: req.body, params: req.params };
      runPartnerRoute(action, options.signedInAccount(req), { ...sources, session: options.sessionId?.(req) })
        .then((outcome) =>
          writeRouteOutcome(outcome, {
            render: render && ((view) => render(view, req, res)),
            renderError: renderError && ((refusal, headers) => renderError(refusal, req, res.set(headers))),
            answer: (answer) => writeAnswer(res, answer),
          }),
        )
        .catch(next);
    },
    gate: (productUid, signedInAccount, redirectTo) => (req, res, next) => {
      gateAnswer(routes, signedInAccount(req), productUid, redirectTo)
        .then((denied) => (denied ? writeAnswer(res, denied) : next()))
        .catch(next);
    },
  });
}
