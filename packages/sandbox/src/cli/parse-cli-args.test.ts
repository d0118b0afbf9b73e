import { describe, expect, it } from 'vitest';
import { CliUsageError, DEFAULT_PORT, parseCliArgs } from './parse-cli-args.js';

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
