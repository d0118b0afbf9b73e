import { describe, expect, it } from 'vitest';
import { memoryLedger } from '../ledger/memory-ledger.js';
import { memoryStore } from '../store/memory-store.js';
import { createWebhookHandler } from '../webhooks/create-webhook-handler.js';
import { CLI_HELP } from './cli-help.js';
import { type CliIo, runCli } from './run-cli.js';

const URL_ = 'https://shop.example/webhooks/dcb';

/** A dcbkit receiver behind fetch, in this process: what the doctor would reach over the network. */
function kitBehindFetch(secret: string): typeof fetch {
  const handler = createWebhookHandler({
    secrets: secret,
    store: memoryStore(),
    ledger: memoryLedger(),
    offers: [],
    maxBodyBytes: 64 * 1024,
    logger: {},
  });
  return async (_url, init = {}) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const answer = await handler({ rawBody: String(init.body), headers });
    return new Response(answer.body, {
      status: answer.status,
      headers: { ...answer.headers, date: new Date().toUTCString() },
    });
  };
}

async function run(argv: string[], io: Partial<CliIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli({
    argv,
    env: {},
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    ...io,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('runCli', () => {
  it('exits 0 on a healthy receiver and 1 with a finding, as text or JSON', async () => {
    const healthy = await run(['doctor', URL_, '--secret', 'whsec_right'], {
      fetch: kitBehindFetch('whsec_right'),
    });
    expect(healthy).toMatchObject({ code: 0, err: '' });
    expect(healthy.out).toContain('Healthy: every probe was answered as the spec expects.');

    const wrong = await run(['doctor', URL_, '--json'], {
      env: { DCB_WEBHOOK_SECRET: 'whsec_wrong' },
      fetch: kitBehindFetch('whsec_right'),
    });
    expect(wrong.code).toBe(1);
    const report = JSON.parse(wrong.out);
    expect(report).toMatchObject({ url: URL_, healthy: false });
    expect(report.findings.map((finding: { code: string }) => finding.code)).toEqual(['wrong_secret']);
    // The secrets are the user's: never printed.
    expect(wrong.out).not.toContain('whsec_wrong');
    expect(wrong.out).not.toContain('whsec_right');
  });

  it('exits 1 with one finding when the URL cannot be reached, after one request', async () => {
    let requests = 0;
    const result = await run(['doctor', URL_, '--secret', 'whsec_a'], {
      fetch: async () => {
        requests++;
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
        });
      },
    });
    expect(result.code).toBe(1);
    expect(requests).toBe(1);
    expect(result.out).toContain('connection_failed');
  });

  it('prints the help and exits 0, or the problem and the usage line and exits 2', async () => {
    expect(await run(['--help'])).toEqual({ code: 0, out: CLI_HELP, err: '' });
    const usage = await run(['doctor', URL_]);
    expect(usage.code).toBe(2);
    expect(usage.out).toBe('');
    expect(usage.err).toMatch(/^dcbkit doctor: --secret is missing.*\nUsage: dcbkit doctor <webhook-url>/s);
  });
});
