import type { RequestListener } from 'node:http';
import { createHonoRoutes, createHonoWebhook } from '@dcbkit/hono';
import { getRequestListener } from '@hono/node-server';
import { type Context, type Handler, Hono, type MiddlewareHandler } from 'hono';
import {
  type AppVariant,
  accountHeader,
  appErrorBody,
  type BodyParsing,
  sessionHeader,
} from '../partner-apps.js';

const isType = (c: Context, type: string) =>
  (c.req.header('content-type') ?? '').toLowerCase().startsWith(type);

/**
 * The app's own body reading before any route, as Hono apps have it: 'kept' reads JSON and forms
 * through Hono (`c.req.json()`, `c.req.parseBody()`), which caches the bytes on the request;
 * 'discarded' is a middleware that reads `c.req.raw.json()` itself, past Hono's cache, and keeps
 * only the object (the classic webhook bug). 'none' leaves every body to dcbkit.
 */
function bodyReading(bodyParsing: BodyParsing): MiddlewareHandler {
  return async (c, next) => {
    const json = isType(c, 'application/json');
    if (bodyParsing === 'kept' && json) await c.req.json();
    if (bodyParsing === 'kept' && isType(c, 'application/x-www-form-urlencoded')) await c.req.parseBody();
    if (bodyParsing === 'discarded' && json) await c.req.raw.json();
    await next();
  };
}

/**
 * Hono 4 on @dcbkit/hono, served on node:http by @hono/node-server (Hono's own Node server). The
 * access gate is a middleware before the page; an error reaches the app's `onError`.
 */
export function honoVariant(name: string): AppVariant {
  return {
    name,
    build(kit, bodyParsing, onAppError, mounting = 'post'): RequestListener {
      const app = new Hono();
      app.onError((error, c) => {
        onAppError?.(error);
        return c.json(appErrorBody(error), 500);
      });
      if (bodyParsing !== 'none') app.use(bodyReading(bodyParsing));
      const dcb = createHonoRoutes({
        routes: kit.routes,
        signedInAccount: (c) => c.req.header(accountHeader) || undefined,
        sessionId: (c) => c.req.header(sessionHeader) || undefined,
      });
      const changing = (path: string, handler: Handler) =>
        mounting === 'post' ? app.post(path, handler) : app.all(path, handler);
      app.post('/webhooks/dcb', createHonoWebhook(kit.webhooks));
      changing('/checkout', dcb.checkout());
      app.get('/return', dcb.returnPage());
      changing('/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
      changing('/subscriptions/:subscriptionUid/resume', dcb.resumeSubscription());
      changing('/payments/:paymentUid/cancel', dcb.cancelPayment());
      changing('/passes/:productUid/use', dcb.spendUnit());
      app.get('/premium', dcb.requireAccess('prod_premium'), (c) => c.text('premium content'));
      app.get('/day-pass', dcb.requireAccess('prod_day_pass'), (c) => c.text('a day of content'));
      app.get('/unlock', dcb.requireAccess('prod_full_unlock', { redirectTo: '/offers' }), (c) =>
        c.text('unlocked'),
      );
      // overrideGlobalObjects: false keeps the test process's own Request and Response globals.
      return getRequestListener(app.fetch, { overrideGlobalObjects: false }) as RequestListener;
    },
  };
}
