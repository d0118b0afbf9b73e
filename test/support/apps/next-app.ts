import type { RequestListener } from 'node:http';
import { createNextHandlers, type NextRouteHandler } from '@dcbkit/next';
import { getRequestListener } from '@hono/node-server';
import {
  type AppVariant,
  accountHeader,
  appErrorBody,
  type BodyParsing,
  sessionHeader,
} from '../partner-apps.js';
import { isType, matchPath } from './fetch-routing.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/** A `route.ts` module: the handlers it exports, by method. */
type RouteModule = Partial<Record<(typeof METHODS)[number], NextRouteHandler>>;

/**
 * The app's own code reading a body before it hands the request to dcbkit, as a route handler
 * would: 'kept' reads a copy (`request.clone().json()`, the Next.js way to peek at a body);
 * 'discarded' reads `request.json()` itself, the classic webhook bug. 'none' hands it on unread.
 */
function readingFirst(bodyParsing: BodyParsing, handler: NextRouteHandler): NextRouteHandler {
  if (bodyParsing === 'none') return handler;
  return async (request, context) => {
    const json = isType(request, 'application/json');
    if (bodyParsing === 'kept' && json) await request.clone().json();
    if (bodyParsing === 'kept' && isType(request, 'application/x-www-form-urlencoded'))
      await request.clone().formData();
    if (bodyParsing === 'discarded' && json) await request.json();
    return handler(request, context);
  };
}

/**
 * A Next.js App Router app on @dcbkit/next: each folder's `route.ts` exports the handlers of its
 * methods, called as Next.js 15+ calls them, `(request, { params: Promise })`, served on node:http
 * by @hono/node-server's getRequestListener (the bridge of the bare fetch app). The kit is made at
 * the first request, as `createNextHandlers({ kit })` does in an app. As Next.js does, a method
 * the module does not export is answered 405 with Allow; an error a handler throws goes where
 * Next.js reports it (instrumentation's onRequestError), here the test's sink, and is answered 500.
 */
export function nextVariant(name: string): AppVariant {
  return {
    name,
    build(kit, bodyParsing, onAppError, mounting = 'post'): RequestListener {
      const dcb = createNextHandlers({
        kit: () => ({ routes: kit.routes, webhook: kit.webhooks }),
        signedInAccount: (request) => request.headers.get(accountHeader) || undefined,
        sessionId: (request) => request.headers.get(sessionHeader) || undefined,
      });
      /** A state-changing route: exported as POST only, or (mounted on any method) as every method. */
      const changing = (handler: NextRouteHandler): RouteModule => {
        const read = readingFirst(bodyParsing, handler);
        return mounting === 'post'
          ? { POST: read }
          : Object.fromEntries(METHODS.map((method) => [method, read]));
      };
      const gated = (
        gate: (request: Request) => Promise<Response | undefined>,
        content: string,
      ): RouteModule => ({
        GET: async (request) => (await gate(request)) ?? new Response(content),
      });
      const folders: Record<string, RouteModule> = {
        '/webhooks/dcb': { POST: readingFirst(bodyParsing, dcb.webhook()) },
        '/checkout': changing(dcb.checkout()),
        '/return': { GET: dcb.returnPage() },
        '/subscriptions/[subscriptionUid]/cancel': changing(dcb.cancelSubscription()),
        '/subscriptions/[subscriptionUid]/resume': changing(dcb.resumeSubscription()),
        '/payments/[paymentUid]/cancel': changing(dcb.cancelPayment()),
        '/passes/[productUid]/use': changing(dcb.spendUnit()),
        '/premium': gated(dcb.requireAccess('prod_premium'), 'premium content'),
        '/day-pass': gated(dcb.requireAccess('prod_day_pass'), 'a day of content'),
        '/unlock': gated(dcb.requireAccess('prod_full_unlock', { redirectTo: '/offers' }), 'unlocked'),
      };

      async function app(request: Request): Promise<Response> {
        const { pathname } = new URL(request.url);
        for (const [folder, module] of Object.entries(folders)) {
          const params = matchPath(folder, pathname, 'bracket');
          if (params === undefined) continue;
          const handler = module[request.method as keyof RouteModule];
          if (handler === undefined) {
            return new Response(null, { status: 405, headers: { allow: Object.keys(module).join(', ') } });
          }
          try {
            return await handler(request, { params: Promise.resolve(params) });
          } catch (error) {
            onAppError?.(error);
            return Response.json(appErrorBody(error), { status: 500 });
          }
        }
        return new Response('not found', { status: 404 });
      }

      // overrideGlobalObjects: false keeps the test process's own Request and Response globals.
      return getRequestListener(app, { overrideGlobalObjects: false }) as RequestListener;
    },
  };
}
