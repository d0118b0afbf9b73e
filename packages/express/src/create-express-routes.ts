import type { DcbError, DcbErrorCode, RouteView } from '@dcbkit/core';
import { runPartnerRoute } from '@dcbkit/core/node';
import {
  checkRouteHandlerOptions,
  gateAnswer,
  type PartnerRouteHandlers,
  type PartnerRoutes,
  partnerRouteHandlers,
} from '@dcbkit/core/web';
import type { Request, RequestHandler, Response } from 'express';
import { writeAnswer } from './write-answer.js';

export interface ExpressRoutesOptions {
  routes: PartnerRoutes;
  /** The signed-in account of a request (your session's user id), or undefined. */
  signedInAccount: (req: Request) => string | undefined | Promise<string | undefined>;
  /**
   * The id of the browser's session, when your app has one (express-session's `req.sessionID`, or
   * a random value you keep in the session at sign-in): form tokens are then bound to the session
   * as well as the account, so one copied from another session is refused. Pass the same id to
   * `routes.formToken(accountKey, sessionId)`.
   */
  sessionId?: (req: Request) => string | undefined;
  /** Render a view yourself (HTML pages); default: the view as JSON. */
  render?: (view: RouteView, req: Request, res: Response) => void | Promise<void>;
  /**
   * Render a refusal yourself (an HTML error page): `error.code` says which, `error.httpStatus`
   * what to answer, `error.message` a sentence for the browser. Default: small JSON.
   */
  renderError?: (error: DcbError<DcbErrorCode<'route'>>, req: Request, res: Response) => void | Promise<void>;
  /** Where requireAccess sends someone without access; default: answer 403. */
  offersPage?: string;
}

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
        .then(({ answer, view, refusal, refusalHeaders }) => {
          if (view && render) return render(view, req, res);
          if (refusal && renderError) return renderError(refusal, req, res.set(refusalHeaders ?? {}));
          return writeAnswer(res, answer);
        })
        .catch(next);
    },
    gate: (productUid, signedInAccount, redirectTo) => (req, res, next) => {
      gateAnswer(routes, signedInAccount(req), productUid, redirectTo)
        .then((denied) => (denied ? writeAnswer(res, denied) : next()))
        .catch(next);
    },
  });
}
