import { runPartnerRoute } from '@dcbkit/core/node';
import type { PartnerRouteHandlers, RouteHandlerOptions } from '@dcbkit/core/web';
import {
  checkRouteHandlerOptions,
  gateAnswer,
  partnerRouteHandlers,
  writeRouteOutcome,
} from '@dcbkit/core/web';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyRouteHandler } from './fastify-route-handler.js';
import { writeAnswer } from './write-answer.js';

/**
 * createFastifyRoutes' options: `render` and `renderError` get the request and the reply (render
 * with `reply.view()`, say); what they return is not used.
 */
export interface FastifyRoutesOptions
  extends RouteHandlerOptions<FastifyRequest, unknown, [reply: FastifyReply]> {}

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
      const session = options.sessionId?.(request);
      const outcome = await runPartnerRoute(action, options.signedInAccount(request), {
        ...sources,
        session,
      });
      await writeRouteOutcome<unknown>(outcome, {
        render: render && ((view) => render(view, request, reply)),
        renderError:
          renderError && ((refusal, headers) => renderError(refusal, request, reply.headers(headers))),
        answer: (answer) => writeAnswer(reply, answer),
      });
      return reply;
    },
    gate: (productUid, signedInAccount, redirectTo) => async (request, reply) => {
      const denied = await gateAnswer(routes, signedInAccount(request), productUid, redirectTo);
      return denied ? writeAnswer(reply, denied) : undefined;
    },
  });
}
