import type { DcbKit, ReadinessCheck } from '@dcbkit/core';
import type { ShopLogger } from './logger.js';

/** A probe's answer, for the framework to send as JSON. */
export interface HealthAnswer {
  status: 200 | 503;
  body: object;
}

/** GET /health/live: the process answers. Nothing else is asked: a restart cannot fix a database or the service. */
export function liveAnswer(): HealthAnswer {
  return { status: 200, body: { ok: true } };
}

/**
 * GET /health/ready: `kit.checkReadiness()` (the store answers a read, an access token can be had,
 * each within 5 s), 200 when ready and 503 otherwise. The answer names each check's code only:
 * the probe is public, and an error's message may name a database host; the log has the messages,
 * written when readiness changes rather than on every probe. `billing` says what answers for the
 * service: `emulator` (the embedded sandbox, whose purchases are make-believe and kept in memory)
 * or `service`, so a deployment's monitoring sees a shop left on the emulator.
 */
export function readinessProbe(
  kit: Pick<DcbKit, 'checkReadiness'>,
  logger: Pick<ShopLogger, 'info' | 'warn'>,
  billing: 'emulator' | 'service',
): () => Promise<HealthAnswer> {
  let wasReady = true;
  return async () => {
    const readiness = await kit.checkReadiness().catch(
      (error: unknown) =>
        ({
          ready: false,
          store: { ok: false, code: 'error', message: String(error) },
          service: { ok: false, code: 'error', message: String(error) },
        }) as const,
    );
    if (readiness.ready !== wasReady) {
      wasReady = readiness.ready;
      if (readiness.ready) logger.info('ready again: the store and the billing service answer');
      else logger.warn({ store: readiness.store, service: readiness.service }, 'not ready');
    }
    const codeOnly = ({ ok, code }: ReadinessCheck) => (ok ? { ok } : { ok, code });
    return {
      status: readiness.ready ? 200 : 503,
      body: {
        ready: readiness.ready,
        store: codeOnly(readiness.store),
        service: codeOnly(readiness.service),
        billing,
      },
    };
  };
}
