import type { DcbError, DcbErrorCode, RouteView } from '@dcbkit/core';
import { runPartnerRoute } from '@dcbkit/core/node';
import {
  checkRouteHandlerOptions,
  gateAnswer,
  type PartnerRouteHandlers,
  type PartnerRoutes,
  partnerRouteHandlers,
} from '@dcbkit/core/web';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyRouteHandler } from './fastify-route-handler.js';
import { writeAnswer } from './write-answer.js';

export interface FastifyRoutesOptions {
  routes: PartnerRoutes;
  /** The signed-in account of a request (your session's user id), or undefined. */
  signedInAccount: (request: FastifyRequest) => string | undefined | Promise<string | undefined>;
  /**
   * The id of the browser's session, when your app has one (@fastify/session's
   * `request.session.sessionId`, or a random value you keep in the session at sign-in): form tokens
   * are then bound to the session as well as the account, so one copied from another session is
   * refused. Pass the same id to `routes.formToken(accountKey, sessionId)`.
   */
  sessionId?: (request: FastifyRequest) => string | undefined;
  /** Render a view yourself (HTML pages, `reply.view()`); default: the view as JSON. */
  render?: (view: RouteView, request: FastifyRequest, reply: FastifyReply) => unknown;
  /**
   * Render a refusal yourself (an HTML error page): `error.code` says which, `error.httpStatus`
   * what to answer, `error.message` a sentence for the browser. Default: small JSON.
   */
  renderError?: (
    error: DcbError<DcbErrorCode<'route'>>,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => unknown;
  /** Where requireAccess sends someone without access; default: answer 403. */
  offersPage?: string;
}

/**
 * The access gate as a preHandler hook: it answers the refusal (and returns the reply), or
 * returns undefined and the route's handler runs.
 */
export type FastifyAccessGate = (
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<FastifyReply | undefined>;

/** The route handlers, each ready to mount; `requireAccess` is a preHandler hook. */
export type FastifyRoutes = PartnerRouteHandlers<
  FastifyRouteHandler,
  FastifyRoutesOptions['signedInAccount'],
  FastifyAccessGate
>;

/**
 * Checkout, return, subscription cancel/resume and the access gate as Fastify handlers. Every
 * decision is core's (createPartnerRoutes); these only collect fields and write answers. Mount
 * them in `fastifyDcbkit`'s scope, where dcbkit reads forms and JSON itself, or anywhere your own
 * parsers read them (@fastify/formbody for forms).
 *
 * @example
 * const dcb = createFastifyRoutes({ routes: kit.routes, signedInAccount: (request) => request.session.userId });
 * await app.register(fastifyDcbkit, {
 *   webhook: kit.webhook,
 *   mount(billing) {
 *     billing.post('/checkout', dcb.checkout());
 *     billing.get('/return', dcb.returnPage());
 *     billing.post('/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
 *   },
 * });
 * app.get('/premium', { preHandler: dcb.requireAccess('premium') }, showPremium);
 */
export function createFastifyRoutes(options: FastifyRoutesOptions): FastifyRoutes {
  checkRouteHandlerOptions('createFastifyRoutes', options);
  const { routes, render, renderError } = options;
  return partnerRouteHandlers(routes, options, {
    handle: (action) => async (request, reply) => {
      const sources = {
        req: request.raw,
        query: request.query as Record<string, unknown> | undefined,
        parsedBody: request.body,
        params: request.params as Record<string, unknown> | undefined,
      };
      const { answer, view, refusal, refusalHeaders } = await runPartnerRoute(
        action,
        options.signedInAccount(request),
        { ...sources, session: options.sessionId?.(request) },
      );
      if (view && render) await render(view, request, reply);
      else if (refusal && renderError)
        await renderError(refusal, request, reply.headers(refusalHeaders ?? {}));
      else writeAnswer(reply, answer);
      return reply;
    },
    gate: (productUid, signedInAccount, redirectTo) => async (request, reply) => {
      const denied = await gateAnswer(routes, signedInAccount(request), productUid, redirectTo);
      return denied ? writeAnswer(reply, denied) : undefined;
    },
  });
}
