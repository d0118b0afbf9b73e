import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DcbError, isDcbError } from '@dcbkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxConfigError } from '../config/sandbox-config-error.js';
import { SandboxPortInUseError } from '../http/port-in-use-error.js';
import { SandboxError } from '../shared/sandbox-error.js';
import { startTestSandbox } from '../test-support/sandbox-fixture.js';
import { type Sandbox, startSandbox } from './start-sandbox.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** What `run` threw, or a failure when it threw nothing. */
async function thrownBy(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('startSandbox refuses with typed errors before anything listens', () => {
  it('a webhook URL that is not http(s): SandboxConfigError invalid_webhook_url', async () => {
    const error = await thrownBy(() => startSandbox({ port: 0, webhookUrl: 'ftp://example.com' }));
    expect(error).toBeInstanceOf(SandboxConfigError);
    expect(error).toBeInstanceOf(SandboxError);
    expect(isDcbError(error, 'invalid_webhook_url')).toBe(true);
  });

  it('a listener beyond loopback without a control token: control_token_required', async () => {
    const error = await thrownBy(() => startSandbox({ port: 0, host: '0.0.0.0' }));
    expect(error).toBeInstanceOf(SandboxConfigError);
    expect(error).toMatchObject({ code: 'control_token_required' });
  });

  it('a port already taken: SandboxPortInUseError, code EADDRINUSE as node:http says', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const error = await thrownBy(() => startSandbox({ port }));
      expect(error).toBeInstanceOf(SandboxPortInUseError);
      expect(error).toBeInstanceOf(SandboxError);
      expect(error).toMatchObject({ code: 'EADDRINUSE', host: '127.0.0.1', port });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a running sandbox’s methods throw SandboxError with a code', () => {
  it.each([
    ['approve', 'unknown_application', (s: Sandbox) => s.environments.production.approve('svc_live_nobody')],
    [
      'approve (live already)',
      'already_approved',
      (s: Sandbox) => [s.environments.production.approve(), s.environments.production.approve()],
    ],
    [
      'webhookUrl',
      'unknown_application',
      (s: Sandbox) => s.environments.sandbox.webhookUrl('svc_test_nobody'),
    ],
    [
      'setWebhookUrl (unknown application)',
      'unknown_application',
      (s: Sandbox) => s.setWebhookUrl('http://127.0.0.1:9/hook', 'svc_test_nobody'),
    ],
    ['setWebhookUrl (not http)', 'invalid_webhook_url', (s: Sandbox) => s.setWebhookUrl('ftp://example.com')],
    [
      'setRenewalOutcome',
      'unknown_subscription',
      (s: Sandbox) => s.setRenewalOutcome('subs_nope', 'success'),
    ],
    ['setChaos', 'invalid_chaos_settings', (s: Sandbox) => s.setChaos({ duplicateProbability: 2 })],
    ['clock.advance', 'invalid_clock_advance', (s: Sandbox) => s.clock.advance(-1)],
  ] as const)('%s: %s', async (_method, code, call) => {
    sandbox = await startTestSandbox();
    const running = sandbox;
    const error = await thrownBy(() => call(running));
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toBeInstanceOf(DcbError);
    expect(error).toMatchObject({ name: 'SandboxError', code });
  });
});
