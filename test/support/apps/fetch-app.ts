import type { RequestListener } from 'node:http';
import { createFetchRoutes, createFetchWebhook, type FetchRouteHandler } from '@dcbkit/core/web';
import { getRequestListener } from '@hono/node-server';
import {
  type AppVariant,
  accountHeader,
  appErrorBody,
  type BodyParsing,
  sessionHeader,
} from '../partner-apps.js';
import { isType, matchPath } from './fetch-routing.js';

/** A route of the app's tiny router: the method (undefined: any), the path with `:params`, the handler. */
type Route = [method: string | undefined, path: string, handle: FetchRouteHandler];

/**
 * The app's own body parsing before any route, as a fetch app has it: 'kept' parses JSON and form
 * bodies and, as a Request's body can be read only once, hands the routes a Request re-made from
 * the bytes it read (what Hono's cached body does); 'discarded' reads `request.json()` and keeps
 * only the object, the classic webhook bug. 'none' leaves every body to dcbkit.
 */
async function parseBodies(request: Request, bodyParsing: BodyParsing): Promise<Request> {
  const json = isType(request, 'application/json');
  if (bodyParsing === 'none' || !(json || isType(request, 'application/x-www-form-urlencoded')))
    return request;
  if (bodyParsing === 'discarded') {
    if (json) await request.json();
    return request;
  }
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (json && bytes.byteLength > 0) JSON.parse(new TextDecoder().decode(bytes));
  return new Request(request.url, { method: request.method, headers: request.headers, body: bytes });
}

/**
 * A partner app on fetch's Request and Response, written against `@dcbkit/core/web` alone with a
 * router of a few lines, served on node:http by @hono/node-server's getRequestListener (the bridge
 * Hono's own Node server uses). What an app on Bun, Deno or an edge runtime writes, minus the server.
 */
export function fetchVariant(name: string): AppVariant {
  return {
    name,
    build(kit, bodyParsing, onAppError, mounting = 'post'): RequestListener {
      const dcb = createFetchRoutes({
        routes: kit.routes,
        signedInAccount: (request) => request.headers.get(accountHeader) || undefined,
        sessionId: (request) => request.headers.get(sessionHeader) || undefined,
      });
      const webhook = createFetchWebhook(kit.webhooks);
      const changing = mounting === 'post' ? 'POST' : undefined;
      const gated =
        (gate: (request: Request) => Promise<Response | undefined>, content: string): FetchRouteHandler =>
        async (request) =>
          (await gate(request)) ?? new Response(content);
      const routes: Route[] = [
        ['POST', '/webhooks/dcb', webhook],
        [changing, '/checkout', dcb.checkout()],
        ['GET', '/return', dcb.returnPage()],
        [changing, '/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription()],
        [changing, '/subscriptions/:subscriptionUid/resume', dcb.resumeSubscription()],
        [changing, '/payments/:paymentUid/cancel', dcb.cancelPayment()],
        [changing, '/passes/:productUid/use', dcb.spendUnit()],
        ['GET', '/premium', gated(dcb.requireAccess('prod_premium'), 'premium content')],
        ['GET', '/day-pass', gated(dcb.requireAccess('prod_day_pass'), 'a day of content')],
        [
          'GET',
          '/unlock',
          gated(dcb.requireAccess('prod_full_unlock', { redirectTo: '/offers' }), 'unlocked'),
        ],
      ];

      async function app(request: Request): Promise<Response> {
        const { pathname } = new URL(request.url);
        for (const [method, path, handle] of routes) {
          const params = matchPath(path, pathname);
          if (params === undefined || (method !== undefined && method !== request.method)) continue;
          try {
            return await handle(await parseBodies(request, bodyParsing), params);
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
