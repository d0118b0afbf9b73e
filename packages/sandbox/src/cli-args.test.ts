import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PORT, parseCliArgs, startupBanner } from './cli-args.js';
import { SandboxConfigError } from './config/load-config.js';
import { type Sandbox, startSandbox } from './start-sandbox.js';

describe('parseCliArgs', () => {
  it('defaults to a fixed port on loopback and the built-in config', () => {
    expect(parseCliArgs([])).toEqual({ port: DEFAULT_PORT, host: '127.0.0.1' });
  });

  it('reads --port, --config and --webhook-url', () => {
    expect(
      parseCliArgs(['--port', '0', '--config', 'my.json', '--webhook-url', 'http://127.0.0.1:3000/hook']),
    ).toEqual({
      port: 0,
      host: '127.0.0.1',
      config: 'my.json',
      webhookUrl: 'http://127.0.0.1:3000/hook',
    });
    expect(parseCliArgs(['--help'])).toBe('help');
  });

  it('refuses a bad port or an unknown flag', () => {
    expect(() => parseCliArgs(['--port', 'abc'])).toThrow(SandboxConfigError);
    expect(() => parseCliArgs(['--port', '70000'])).toThrow(SandboxConfigError);
    expect(() => parseCliArgs(['--verbose'])).toThrow(SandboxConfigError);
  });
});

describe('startupBanner', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('prints the URLs, the demo credentials and the webhook secret', async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1', webhookUrl: 'http://127.0.0.1:9/hook' });
    const banner = startupBanner(sandbox);
    expect(banner).toContain(`API base URL       ${sandbox.apiBaseUrl}`);
    expect(banner).toContain(`Checkout base URL  ${sandbox.checkoutBaseUrl}`);
    expect(banner).toContain('Client ID          svc_test_demo');
    expect(banner).toContain(`Client secret      ${sandbox.credentials.clientSecret}`);
    expect(banner).toContain(`Webhook secret     ${sandbox.credentials.webhookSecret}`);
    expect(banner).toContain('Webhook URL        http://127.0.0.1:9/hook');
    expect(sandbox.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
  });
});

describe('startSandbox', () => {
  it('refuses an invalid webhook URL before listening', async () => {
    await expect(startSandbox({ port: 0, webhookUrl: 'ftp://example.com' })).rejects.toThrow(
      SandboxConfigError,
    );
  });
});
