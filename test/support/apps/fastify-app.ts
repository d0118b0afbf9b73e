import type { RequestListener } from 'node:http';
import {
  createFastifyRoutes,
  createFastifyWebhook,
  type FastifyRouteHandler,
  fastifyDcbkit,
} from '@dcbkit/fastify';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type AppVariant, accountHeader, appErrorBody, sessionHeader } from '../partner-apps.js';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Fastify 5. With no body parsing of its own ('none'), the app mounts the webhook and the billing
 * routes with fastifyDcbkit, whose scope leaves every body to dcbkit. Otherwise they sit in the
 * app's root scope behind the app's own parsers: 'kept' has @fastify/formbody and a JSON parser
 * that keeps the raw bytes as `request.rawBody` (what fastify-raw-body does); 'discarded' has a
 * JSON parser that throws them away, the classic webhook bug.
 *
 * Fastify loads its plugins asynchronously: `build` awaits `app.ready()` and hands back
 * `app.routing`, the request listener Fastify gives its own server.
 */
export function fastifyVariant(name: string): AppVariant {
  return {
    name,
    async build(kit, bodyParsing, onAppError, mounting = 'post'): Promise<RequestListener> {
      const app = Fastify();
      app.setErrorHandler((error, _request, reply) => {
        onAppError?.(error);
        return reply.code(500).send(appErrorBody(error));
      });
      const dcb = createFastifyRoutes({
        routes: kit.routes,
        signedInAccount: (request) => header(request, accountHeader),
        sessionId: (request) => header(request, sessionHeader),
      });
      const mountBilling = (scope: FastifyInstance) => {
        const changing = (path: string, handler: FastifyRouteHandler) =>
          mounting === 'post' ? scope.post(path, handler) : scope.all(path, handler);
        changing('/checkout', dcb.checkout());
        scope.get('/return', dcb.returnPage());
        changing('/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
        changing('/subscriptions/:subscriptionUid/resume', dcb.resumeSubscription());
        changing('/payments/:paymentUid/cancel', dcb.cancelPayment());
        changing('/passes/:productUid/use', dcb.spendUnit());
      };

      if (bodyParsing === 'none') {
        await app.register(fastifyDcbkit, { webhook: kit.webhooks, mount: mountBilling });
      } else {
        if (bodyParsing === 'kept') await app.register(formbody);
        app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
          // Where fastify-raw-body keeps them; Fastify's own request type has no such field.
          if (bodyParsing === 'kept') Reflect.set(request, 'rawBody', body);
          try {
            done(null, body.length === 0 ? undefined : JSON.parse(body.toString('utf8')));
          } catch (error) {
            done(error as Error, undefined);
          }
        });
        app.post('/webhooks/dcb', createFastifyWebhook(kit.webhooks));
        mountBilling(app);
      }

      app.get('/premium', { preHandler: dcb.requireAccess('prod_premium') }, async () => 'premium content');
      app.get(
        '/day-pass',
        { preHandler: dcb.requireAccess('prod_day_pass') },
        async () => 'a day of content',
      );
      app.get(
        '/unlock',
        { preHandler: dcb.requireAccess('prod_full_unlock', { redirectTo: '/offers' }) },
        async () => 'unlocked',
      );
      await app.ready();
      return app.routing;
    },
  };
}
