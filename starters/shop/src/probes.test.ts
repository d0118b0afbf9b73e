import type { Readiness } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';
import { liveAnswer, readinessProbe } from './probes.js';

const READY: Readiness = { ready: true, store: { ok: true }, service: { ok: true } };
const DOWN: Readiness = {
  ready: false,
  store: { ok: true },
  service: { ok: false, code: 'service_unreachable', message: 'connect ECONNREFUSED 10.0.0.7:443' },
};

describe('the probes’ answers', () => {
  it('answers liveness without asking anything', () => {
    expect(liveAnswer()).toEqual({ status: 200, body: { ok: true } });
  });

  it('answers 503 with the codes, and logs a change of readiness once rather than every probe', async () => {
    const answers = [READY, DOWN, DOWN, READY];
    const lines: string[] = [];
    const probe = readinessProbe(
      { checkReadiness: async () => answers.shift() ?? READY },
      {
        info: (message: string) => lines.push(`info ${message}`),
        warn: () => lines.push('warn not ready'),
      } as never,
      'service',
    );
    expect(await probe()).toEqual({ status: 200, body: { ...READY, billing: 'service' } });
    const down = await probe();
    expect(down).toEqual({
      status: 503,
      body: {
        ready: false,
        store: { ok: true },
        service: { ok: false, code: 'service_unreachable' },
        billing: 'service',
      },
    });
    expect(JSON.stringify(down)).not.toContain('10.0.0.7');
    await probe();
    await probe();
    expect(lines).toEqual(['warn not ready', 'info ready again: the store and the billing service answer']);
  });
});
