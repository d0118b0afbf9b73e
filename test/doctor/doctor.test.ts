/**
 * `dcbkit doctor` against real servers on 127.0.0.1: every adapter and the shop on each framework must come out
 * healthy, each receiver broken on purpose must come out with exactly its finding, and a run must
 * change no entitlement of the app it probes.
 */
import type { RequestListener } from 'node:http';
import { signWebhook } from '@dcbkit/core/webhooks';
import type { Sandbox } from '@dcbkit/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../packages/core/src/cli/run-cli.js';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { listen } from '../support/listen.js';
import { APP_VARIANTS, type AppVariant, type BodyParsing } from '../support/partner-apps.js';
import { createPartnerKit, type KitOverrides, type PartnerKit } from '../support/partner-kit.js';
import { SHOPS } from '../support/shops.js';
import {
  acceptsEverything,
  closedPortUrl,
  failingApp,
  headerStrippingProxy,
  kitReceiver,
  neverAnswers,
  redirects,
  reserialisingApp,
  slowly,
} from './broken-apps.js';

interface DoctorFinding {
  code: string;
  severity: string;
  summary: string;
  fix: string;
}

interface DoctorRun {
  code: number;
  codes: string[];
  findings: DoctorFinding[];
  report: { runId: string; healthy: boolean; findings: DoctorFinding[] };
}

let sandbox: Sandbox;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const expressVariant = APP_VARIANTS.find(({ name }) => name === 'Express 5') as AppVariant;

/** A kit as a deployed app has it: on the real clock (the test sandbox's is frozen in 2030). */
function kitOf(overrides: KitOverrides = {}): PartnerKit {
  return createPartnerKit(sandbox, 'http://127.0.0.1/return', { now: () => new Date(), ...overrides });
}

async function serve(listener: RequestListener | Promise<RequestListener>): Promise<string> {
  const app = await listen(await listener);
  cleanups.push(() => app.close());
  return app.url;
}

/** Runs `dcbkit doctor <url> --json` as the command line would, with the sandbox's secret in the environment. */
async function doctor(
  url: string,
  flags: string[] = [],
  secret = sandbox.credentials.webhookSecret,
): Promise<DoctorRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli({
    argv: ['doctor', url, '--json', ...flags],
    env: { DCB_WEBHOOK_SECRET: secret },
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  });
  expect(err).toEqual([]);
  const report = JSON.parse(out.join('\n')) as DoctorRun['report'];
  return { code, report, findings: report.findings, codes: report.findings.map(({ code }) => code) };
}

describe('healthy receivers', () => {
  describe.each(APP_VARIANTS)('$name', (variant) => {
    it.each<BodyParsing>(['none', 'kept'])('has nothing to fix (body parsing: %s)', async (bodyParsing) => {
      const url = await serve(variant.build(kitOf(), bodyParsing));
      const run = await doctor(`${url}/webhooks/dcb`);
      expect(run.codes).toEqual([]);
      expect(run).toMatchObject({ code: 0, report: { healthy: true } });
    });
  });

  it.each(SHOPS)('the $name shop has nothing to fix', async ({ startShop }) => {
    const shop = await startShop({ env: {}, port: 0, logLevel: 'silent' });
    cleanups.push(() => shop.close());
    const secret = shop.sandbox?.credentials.webhookSecret ?? '';
    const run = await doctor(`${shop.url}/webhooks/dcb`, [], secret);
    expect(run.codes).toEqual([]);
    expect(run.code).toBe(0);
  });
});

describe('receivers broken on purpose', () => {
  it('a wrong secret', async () => {
    const url = await serve(
      expressVariant.build(kitOf({ webhookSecrets: 'whsec_of_the_other_environment' }), 'none'),
    );
    const run = await doctor(`${url}/webhooks/dcb`);
    expect(run.codes).toEqual(['wrong_secret']);
    expect(run.code).toBe(1);
    expect(run.findings[0]?.fix).toContain('DCB_WEBHOOK_SECRET');
  });

  it('express.json() re-serialising the body before verification', async () => {
    const url = await serve(reserialisingApp(kitOf()));
    const run = await doctor(`${url}/webhooks/dcb`);
    expect(run.codes).toEqual(['body_reserialised']);
    expect(run.findings[0]?.summary).toContain('401 signature_mismatch');
  });

  it('a global body parser that keeps no raw bytes', async () => {
    const url = await serve(expressVariant.build(kitOf(), 'discarded'));
    expect((await doctor(`${url}/webhooks/dcb`)).codes).toEqual(['raw_body_lost']);
  });

  it('a proxy that strips the Service-Signature header', async () => {
    const app = await serve(expressVariant.build(kitOf(), 'none'));
    const proxy = await serve(headerStrippingProxy(app));
    const run = await doctor(`${proxy}/webhooks/dcb`);
    expect(run.codes).toEqual(['signature_header_dropped']);
    expect(run.findings[0]?.summary).toContain('401 header_missing');
  });

  it('a receiver that accepts everything', async () => {
    const url = await serve(acceptsEverything);
    expect((await doctor(`${url}/webhooks/dcb`)).codes).toEqual(['signature_not_verified', 'no_body_limit']);
  });

  it('a slow receiver', async () => {
    const url = await serve(slowly(await expressVariant.build(kitOf(), 'none'), 2300));
    const run = await doctor(`${url}/webhooks/dcb`);
    expect(run.codes).toEqual(['slow_answers']);
    expect(run.findings[0]?.severity).toBe('warning');
    expect(run.code).toBe(1);
  });

  it('a receiver that answers 500', async () => {
    const url = await serve(failingApp());
    const run = await doctor(`${url}/webhooks/dcb`);
    expect(run.codes).toEqual(['valid_failed']);
    expect(run.findings[0]?.summary).toContain('500 <h1>Internal Server Error</h1>');
  });

  describe('a clock off by minutes', () => {
    async function skewed(skewMs: number): Promise<DoctorRun> {
      const url = await serve(kitReceiver(sandbox.credentials.webhookSecret, skewMs));
      return doctor(`${url}/webhooks/dcb`);
    }

    it('three minutes ahead: deliveries pass, with less margin', async () => {
      const run = await skewed(180_000);
      expect(run.codes).toEqual(['clock_drift']);
      expect(run.findings[0]?.summary).toMatch(/Date header is 18[01] s ahead of/);
      // Whole seconds against probes sent a fraction of a second after they were signed: ±1 s.
      expect(run.findings[0]?.summary).toMatch(/(59|60|61) to (299|300|301) s ahead/);
    });

    it('two minutes behind: it even accepts a stale delivery, and the finding says why', async () => {
      const run = await skewed(-120_000);
      expect(run.codes).toEqual(['clock_drift']);
      expect(run.findings[0]?.summary).toMatch(/1[12][019] s behind/);
      expect(run.findings[0]?.summary).toContain('also why it accepted a probe signed 360 s ago');
    });

    it('ten minutes ahead: every delivery is refused', async () => {
      const run = await skewed(600_000);
      expect(run.codes).toEqual(['clock_skew']);
      expect(run.findings[0]?.severity).toBe('error');
      expect(run.findings[0]?.summary).toMatch(/Date header is 60[01] s ahead of/);
    });
  });

  it('a URL that is not the route', async () => {
    const url = await serve(expressVariant.build(kitOf(), 'none'));
    expect((await doctor(`${url}/webhooks`)).codes).toEqual(['valid_not_found']);
  });

  it('a redirect', async () => {
    const url = await serve(redirects);
    const run = await doctor(`${url}/webhooks/dcb`);
    expect(run.codes).toEqual(['valid_redirected']);
    expect(run.findings[0]?.summary).toContain('to https://shop.example/webhooks/dcb');
  });

  it('a route that never answers', async () => {
    const url = await serve(neverAnswers);
    const run = await doctor(`${url}/webhooks/dcb`, ['--timeout-ms', '300']);
    expect(run.codes).toEqual(['timed_out']);
  });

  it('nothing listening, and https on a port that speaks http', async () => {
    expect((await doctor(`${await closedPortUrl()}/webhooks/dcb`)).codes).toEqual(['connection_failed']);
    const url = await serve(expressVariant.build(kitOf(), 'none'));
    expect((await doctor(`${url.replace('http:', 'https:')}/webhooks/dcb`)).codes).toEqual(['tls_failed']);
  });
});

describe('a run against a live app', () => {
  it('changes no entitlement: the store’s entitlements and history are the same after it', async () => {
    const kit = kitOf();
    const url = await serve(expressVariant.build(kit, 'none'));
    // A real purchase first, delivered as the service delivers it.
    const purchase = JSON.stringify({
      event: 'payment.succeeded',
      paymentUid: 'pay_before_the_doctor',
      status: 'SUCCEEDED',
      orderId: 'ord_before_the_doctor',
      productUid: 'prod_full_unlock',
      offerUid: 'offer_full_unlock',
      subscriberUid: 'sbr_alice',
      metadata: { accountKey: 'alice' },
      occurredAt: new Date().toISOString(),
    });
    const delivered = await fetch(`${url}/webhooks/dcb`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'service-signature': signWebhook({ payload: purchase, secret: sandbox.credentials.webhookSecret }),
      },
      body: purchase,
    });
    expect(await delivered.json()).toEqual({ received: true, outcome: 'applied' });
    const snapshot = async () => ({
      alice: await kit.store.listByAccount('alice'),
      history: await kit.store.listHistory({ limit: 1000 }),
      pending: await kit.store.listPendingPaymentsOfAccount('alice'),
    });
    const before = await snapshot();
    expect(before.alice.map(({ productUid, status }) => `${productUid} ${status}`)).toEqual([
      'prod_full_unlock ACTIVE',
    ]);
    expect(before.history).not.toEqual([]);
    const healthBefore = kit.webhooks.health();

    const run = await doctor(`${url}/webhooks/dcb`);
    expect(run.code).toBe(0);

    expect(await snapshot()).toEqual(before);
    for (const probe of ['valid', 'reformatted', 'clock_past', 'clock_future', 'oversize']) {
      expect(await kit.store.findByPaymentUid(`dcbkit_probe_${run.report.runId}_${probe}`)).toBeUndefined();
    }
    // What the run left is in the counts only, as the report's note says.
    const health = kit.webhooks.health();
    expect(health.accepted - healthBefore.accepted).toBe(5);
    expect(health.duplicate).toBe(healthBefore.duplicate);
    expect(health.refused).toEqual({
      signature_mismatch: 2,
      header_missing: 1,
      timestamp_out_of_tolerance: 1,
      body_too_large: 1,
    });
  });
});
