import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../webhooks/verify-webhook.js';
import { SIGNATURE_HEADER_NAME } from './probe-plan.js';
import { runDoctor } from './run-doctor.js';

const SECRET = 'whsec_run_doctor_test';

/**
 * A receiver that verifies as dcbkit does, on a clock `skewSeconds` ahead of the doctor's, and
 * answers the valid probe (the first request) only after `firstAnswerMs` of the doctor's clock.
 */
function skewedReceiver(clock: { now: number }, skewSeconds: number, firstAnswerMs: number): typeof fetch {
  let requests = 0;
  return async (_url, init = {}) => {
    requests += 1;
    if (requests === 1) clock.now += firstAnswerMs;
    const headers = new Headers(init.headers);
    try {
      verifyWebhook({
        rawBody: String(init.body),
        signature: headers.get(SIGNATURE_HEADER_NAME),
        secrets: SECRET,
        now: new Date(clock.now + skewSeconds * 1000),
      });
      return new Response('{"received":true}', { status: 200 });
    } catch {
      return new Response('{"code":"timestamp_out_of_tolerance"}', { status: 401 });
    }
  };
}

describe('runDoctor against a clock three minutes ahead', () => {
  it('proves the full margin however long the valid probe waited for its answer', async () => {
    // The worst case for whole seconds: the run starts a millisecond before a second ends, and the
    // first answer takes 2.5 s, as on a busy machine.
    const clock = { now: 1_900_000_000_999 };
    const report = await runDoctor({
      url: 'https://shop.example/webhooks/dcb',
      secrets: [SECRET],
      timeoutMs: 10_000,
      clock: () => clock.now,
      fetch: skewedReceiver(clock, 180, 2_500),
    });
    expect(report.findings.map((finding) => finding.code)).toContain('clock_drift');
    expect(report.clock.verifyingOffsets?.map((range) => range.min)).toEqual([60]);
  });

  it('signs the others when they leave, and sends the duplicate as the very bytes of the valid probe', async () => {
    const clock = { now: 1_900_000_000_000 };
    const bodies: string[] = [];
    const receiver = skewedReceiver(clock, 0, 3_000);
    const report = await runDoctor({
      url: 'https://shop.example/webhooks/dcb',
      secrets: [SECRET],
      timeoutMs: 10_000,
      clock: () => clock.now,
      fetch: async (url, init) => {
        bodies.push(String(init?.body));
        return receiver(url, init);
      },
    });
    const timestampOf = (probe: string) => report.answers.find((answer) => answer.probe === probe)?.timestamp;
    expect(timestampOf('valid')).toBe(1_900_000_000);
    expect(timestampOf('duplicate')).toBe(1_900_000_000);
    expect(timestampOf('clock_past')).toBe(1_900_000_003 - 240);
    expect(bodies[1]).toBe(bodies[0]);
    expect(report.findings.map((finding) => finding.code)).not.toContain('clock_drift');
  });
});
