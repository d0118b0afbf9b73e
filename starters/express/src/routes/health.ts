import type { DcbKit } from '@dcbkit/core';
import { type Response, Router } from 'express';
import { type HealthAnswer, liveAnswer, readinessProbe } from '../health.js';
import type { ShopLogger } from '../logger.js';

/**
 * The load balancer's probes, mounted before the request log, the session and sign-in: open to
 * anyone, setting no cookie, and not a log line every few seconds (a change of readiness is one).
 */
export function healthRoutes({ kit, logger }: { kit: DcbKit; logger: ShopLogger }): Router {
  const router = Router();
  const ready = readinessProbe(kit, logger);
  router.get('/health/live', (_req, res) => send(res, liveAnswer()));
  router.get('/health/ready', async (_req, res) => send(res, await ready()));
  return router;
}

function send(res: Response, answer: HealthAnswer): void {
  res.status(answer.status).set('cache-control', 'no-store').json(answer.body);
}
