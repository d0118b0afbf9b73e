import type { DcbKit } from '@dcbkit/core';
import type { ShopLogger } from '../logger.js';
import { type HealthAnswer, liveAnswer, readinessProbe } from '../probes.js';
import { jsonAnswer } from '../web/shop-answer.js';
import type { ShopRoute } from '../web/shop-route.js';

/**
 * The load balancer's probes, mounted before the request log, the session and sign-in: open to
 * anyone, setting no cookie, and not a log line every few seconds (a change of readiness is one).
 */
export function healthRoutes({
  kit,
  logger,
  emulator,
}: {
  kit: DcbKit;
  logger: ShopLogger;
  /** True on the embedded sandbox: readiness says `billing: 'emulator'`. */
  emulator: boolean;
}): ShopRoute[] {
  const ready = readinessProbe(kit, logger, emulator ? 'emulator' : 'service');
  const send = ({ status, body }: HealthAnswer) => jsonAnswer(status, body);
  return [
    { method: 'GET', path: '/health/live', handle: () => send(liveAnswer()) },
    { method: 'GET', path: '/health/ready', handle: async () => send(await ready()) },
  ];
}
