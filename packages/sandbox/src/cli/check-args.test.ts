import { describe, expect, it } from 'vitest';
import { parseCheckArgs } from './check-args.js';

const REQUIRED = [
  '--app-url',
  'http://127.0.0.1:8000',
  '--webhook-secret',
  'whsec_0123456789abcdef',
  '--access-url',
  'http://127.0.0.1:8000/access?account={accountKey}&product={productUid}',
];

describe('parseCheckArgs', () => {
  it('reads the templates as paths on the app, braces kept', () => {
    expect(
      parseCheckArgs([...REQUIRED, '--spend-url', 'http://127.0.0.1:8000/spend/{accountKey}/{productUid}']),
    ).toEqual({
      kind: 'receiver',
      appUrl: 'http://127.0.0.1:8000',
      webhookPath: '/webhooks/dcb',
      webhookSecret: 'whsec_0123456789abcdef',
      accessPath: '/access?account={accountKey}&product={productUid}',
      spendPath: '/spend/{accountKey}/{productUid}',
      junitPath: undefined,
      seed: undefined,
      port: 0,
    });
  });

  it('reads an app with pages from a config file, on the default port so the app can be pointed at it', () => {
    expect(
      parseCheckArgs(['--config', 'partner-check.json', '--webhook-secret', 'whsec_0123456789abcdef']),
    ).toEqual({
      kind: 'app',
      configPath: 'partner-check.json',
      webhookSecret: 'whsec_0123456789abcdef',
      junitPath: undefined,
      seed: undefined,
      port: 4010,
      waitSeconds: 60,
    });
    expect(() => parseCheckArgs(['--config', 'c.json', '--app-url', 'http://127.0.0.1:1'])).toThrow(
      /goes in the --config file/,
    );
  });

  it.each([
    [['--app-url', 'http://127.0.0.1:8000'], /--webhook-secret is required/],
    [[...REQUIRED.slice(0, 2), '--webhook-secret', 'short', ...REQUIRED.slice(4)], /16 characters/],
    [
      [...REQUIRED.slice(0, 4), '--access-url', 'http://127.0.0.1:9000/access?a={accountKey}'],
      /app's origin/,
    ],
    [[...REQUIRED.slice(0, 4), '--access-url', 'http://127.0.0.1:8000/access'], /\{accountKey\}/],
    [[...REQUIRED, '--webhook-path', 'webhooks'], /starting with '\/'/],
    [[...REQUIRED, '--seed', '-1'], /--seed/],
    [[...REQUIRED, '--accountKey', 'x'], /Unknown option/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCheckArgs(argv)).toThrow(message);
  });

  it('answers help', () => {
    expect(parseCheckArgs(['--help'])).toBe('help');
  });
});
