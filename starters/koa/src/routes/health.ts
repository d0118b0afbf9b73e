import type { DcbKit } from '@dcbkit/core';
import Router from '@koa/router';
import type { Context } from 'koa';
import { type HealthAnswer, liveAnswer, readinessProbe } from '../health.js';
import type { ShopLogger } from '../logger.js';

/**
 * The load balancer's probes, mounted before the request log, the session and sign-in: open to
 * anyone, setting no cookie, and not a log line every few seconds (a change of readiness is one).
 */
export function healthRoutes({ kit, logger }: { kit: DcbKit; logger: ShopLogger }): Router {
  const router = new Router();
  const ready = readinessProbe(kit, logger);
  router.get('/health/live', (ctx) => send(ctx, liveAnswer()));
  router.get('/health/ready', async (ctx) => send(ctx, await ready()));
  return router;
}

function send(ctx: Context, answer: HealthAnswer): void {
  ctx.status = answer.status;
  ctx.set('cache-control', 'no-store');
  ctx.body = answer.body;
}
