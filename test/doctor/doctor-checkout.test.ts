/**
 * Issue 38: `dcbkit doctor --offer` finds a wrong DCB_CHECKOUT_BASE_URL before a buyer does. It
 * opens a checkout on the sandbox with the app's DCB_* variables, checks its URL as the partner
 * routes would, and cancels the payment at once.
 */
import { createClient } from '@dcbkit/core';
import type { Sandbox } from '@dcbkit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../packages/core/src/cli/run-cli.js';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { listen } from '../support/listen.js';
import { kitReceiver } from './broken-apps.js';

let sandbox: Sandbox;
let webhookUrl: string;
let closeReceiver: () => Promise<void>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const receiver = await listen(kitReceiver(sandbox.credentials.webhookSecret));
  webhookUrl = `${receiver.url}/webhooks/dcb`;
  closeReceiver = () => receiver.close();
});
afterAll(async () => {
  await closeReceiver?.();
  await sandbox?.close();
});

function appEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DCB_ENV: 'sandbox',
    DCB_API_BASE_URL: sandbox.apiBaseUrl,
    DCB_CLIENT_ID: sandbox.credentials.clientId,
    DCB_CLIENT_SECRET: sandbox.credentials.clientSecret,
    DCB_WEBHOOK_SECRET: sandbox.credentials.webhookSecret,
    ...extra,
  };
}

interface Report {
  healthy: boolean;
  findings: Array<{ code: string; severity: string; summary: string; fix: string }>;
  checkout?: { outcome: string; paymentUid?: string; checkoutUrl?: string; canceled?: boolean };
}

async function doctor(env: Record<string, string>, flags: string[] = ['--offer', 'offer_day_pass']) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli({
    argv: ['doctor', webhookUrl, '--json', ...flags],
    env,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  });
  return {
    code,
    err: err.join('\n'),
    report: out.length > 0 ? (JSON.parse(out.join('\n')) as Report) : undefined,
  };
}

async function statusOf(paymentUid: string | undefined) {
  const client = createClient({
    environment: 'sandbox',
    baseUrl: sandbox.apiBaseUrl,
    clientId: sandbox.credentials.clientId,
    clientSecret: sandbox.credentials.clientSecret,
  });
  return (await client.payments.retrieve(paymentUid ?? '')).status;
}

describe('dcbkit doctor --offer', () => {
  it('finds a DCB_CHECKOUT_BASE_URL that is not the checkout host, names the one to set, and cancels its payment', async () => {
    const run = await doctor(appEnv({ DCB_CHECKOUT_BASE_URL: 'https://checkout.wrong.example' }));
    expect(run.code).toBe(1);
    expect(run.report?.findings.map(({ code }) => code)).toEqual(['checkout_host_mismatch']);
    const [found] = run.report?.findings ?? [];
    expect(found?.summary).toContain(`DCB_CHECKOUT_BASE_URL=${sandbox.checkoutBaseUrl}`);
    expect(found?.summary).toContain('https://checkout.wrong.example/c/pay_');
    expect(found?.fix).toContain('DCB_CHECKOUT_BASE_URL');
    expect(run.report?.checkout).toMatchObject({ outcome: 'created', canceled: true });
    expect(await statusOf(run.report?.checkout?.paymentUid)).toBe('CANCELED');
  });

  it('is healthy with the right checkout host, the payment cancelled all the same', async () => {
    const run = await doctor(appEnv({ DCB_CHECKOUT_BASE_URL: sandbox.checkoutBaseUrl }));
    expect(run.report?.findings).toEqual([]);
    expect(run.code).toBe(0);
    expect(await statusOf(run.report?.checkout?.paymentUid)).toBe('CANCELED');
  });

  it('warns when no checkout host is set, with the one the service uses', async () => {
    const run = await doctor(appEnv());
    expect(run.report?.findings).toMatchObject([
      {
        code: 'checkout_host_unset',
        severity: 'warning',
        summary: expect.stringContaining(`DCB_CHECKOUT_BASE_URL=${sandbox.checkoutBaseUrl}`),
      },
    ]);
  });

  it('says so when the offer is not in the catalogue', async () => {
    const run = await doctor(appEnv({ DCB_CHECKOUT_BASE_URL: sandbox.checkoutBaseUrl }), [
      '--offer',
      'offer_nope',
    ]);
    expect(run.report?.findings).toMatchObject([
      { code: 'checkout_failed', summary: expect.stringContaining('CAT-102') },
    ]);
    expect(run.code).toBe(1);
  });

  it('is a usage error, naming each variable, without the DCB_* variables', async () => {
    const run = await doctor({ DCB_WEBHOOK_SECRET: sandbox.credentials.webhookSecret });
    expect(run.code).toBe(2);
    expect(run.err).toContain('--offer');
    expect(run.err).toContain('DCB_API_BASE_URL is not set');
  });

  it('prints the checkout it opened under the probes', async () => {
    const out: string[] = [];
    await runCli({
      argv: ['doctor', webhookUrl, '--offer', 'offer_day_pass'],
      env: appEnv({ DCB_CHECKOUT_BASE_URL: 'https://checkout.wrong.example' }),
      out: (text) => out.push(text),
      err: () => {},
    });
    const text = out.join('\n').replace(/\s+/g, ' ');
    expect(text).toMatch(
      /checkout: offer_day_pass -> http:\/\/127\.0\.0\.1:\d+\/c\/pay_\w+ \(pay_\w+, cancelled\)/,
    );
    expect(text).toContain('error checkout_host_mismatch');
  });
});
