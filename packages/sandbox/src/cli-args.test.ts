import { afterEach, describe, expect, it } from 'vitest';
import { CliUsageError, DEFAULT_PORT, parseCliArgs, startupBanner } from './cli-args.js';
import { SandboxConfigError } from './config/load-config.js';
import { type Sandbox, startSandbox } from './start-sandbox.js';

describe('parseCliArgs', () => {
  it('defaults to a fixed port on loopback and the built-in config', () => {
    expect(parseCliArgs([])).toEqual({ port: DEFAULT_PORT, host: '127.0.0.1' });
  });

  it('reads every flag', () => {
    expect(
      parseCliArgs([
        '--port',
        '0',
        '--production-port',
        '0',
        '--config',
        'my.json',
        '--state',
        'state.json',
        '--webhook-url',
        'http://127.0.0.1:3000/hook',
        '--production-webhook-url',
        'http://127.0.0.1:3001/hook',
      ]),
    ).toEqual({
      port: 0,
      productionPort: 0,
      host: '127.0.0.1',
      config: 'my.json',
      statePath: 'state.json',
      webhookUrl: 'http://127.0.0.1:3000/hook',
      productionWebhookUrl: 'http://127.0.0.1:3001/hook',
    });
    expect(parseCliArgs(['--help'])).toBe('help');
    expect(parseCliArgs(['--version'])).toBe('version');
  });

  it('takes PORT from the environment, and the flag over it', () => {
    expect(parseCliArgs([], { PORT: '5000' })).toMatchObject({ port: 5000 });
    expect(parseCliArgs(['--port', '6000'], { PORT: '5000' })).toMatchObject({ port: 6000 });
    expect(() => parseCliArgs([], { PORT: 'http' })).toThrow(/PORT must be a whole number/);
  });

  it('refuses a bad port, a bad URL or an unknown flag with a usage error', () => {
    expect(() => parseCliArgs(['--port', 'abc'])).toThrow(CliUsageError);
    expect(() => parseCliArgs(['--port', '70000'])).toThrow(CliUsageError);
    expect(() => parseCliArgs(['--verbose'])).toThrow(CliUsageError);
    expect(() => parseCliArgs(['extra'])).toThrow(CliUsageError);
    expect(() => parseCliArgs(['--webhook-url', 'ftp://x'])).toThrow(/--webhook-url must be an http/);
  });
});

describe('startupBanner', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('prints both environments: URLs, credentials, webhook secret and URL, go-live state', async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1', webhookUrl: 'http://127.0.0.1:9/hook' });
    const banner = startupBanner(sandbox);
    const live = sandbox.environments.production;
    expect(banner).toContain(`API base URL       ${sandbox.apiBaseUrl}`);
    expect(banner).toContain(`Checkout base URL  ${sandbox.checkoutBaseUrl}`);
    expect(banner).toContain('Client ID          svc_test_demo');
    expect(banner).toContain(`Client secret      ${sandbox.credentials.clientSecret}`);
    expect(banner).toContain(`Webhook secret     ${sandbox.credentials.webhookSecret}`);
    expect(banner).toContain('Webhook URL        http://127.0.0.1:9/hook');
    expect(banner).toContain('Production environment (emulated; not live until approved');
    expect(banner).toContain(`API base URL       ${live.apiBaseUrl}`);
    expect(banner).toContain('Client ID          svc_live_demo');
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
