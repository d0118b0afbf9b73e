import { describe, expect, it } from 'vitest';
import { DcbError } from '../errors/dcb-error.js';
import { parseCliArgs } from './parse-cli-args.js';

const URL_ = 'https://shop.example/webhooks/dcb';

function usageError(
  argv: string[],
  env: Record<string, string> = { DCB_WEBHOOK_SECRET: 'whsec_env' },
): string {
  try {
    parseCliArgs(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(DcbError);
    expect((error as DcbError).code).toBe('invalid_option');
    return (error as DcbError).message;
  }
  throw new Error(`parsed: ${argv.join(' ')}`);
}

describe('parseCliArgs', () => {
  it('reads doctor, its URL and the flags, the secret falling back to DCB_WEBHOOK_SECRET', () => {
    expect(parseCliArgs(['doctor', URL_], { DCB_WEBHOOK_SECRET: ' whsec_new , whsec_old,' })).toEqual({
      command: 'doctor',
      url: URL_,
      secrets: ['whsec_new', 'whsec_old'],
      timeoutMs: 10_000,
      json: false,
    });
    expect(
      parseCliArgs(['doctor', '--secret', 'whsec_flag', URL_, '--timeout-ms', '2500', '--json'], {
        DCB_WEBHOOK_SECRET: 'whsec_env',
      }),
    ).toEqual({ command: 'doctor', url: URL_, secrets: ['whsec_flag'], timeoutMs: 2500, json: true });
  });

  it('asks for help with --help or -h, with or without the command', () => {
    for (const argv of [['--help'], ['-h'], ['doctor', '--help'], ['doctor', URL_, '-h']]) {
      expect(parseCliArgs(argv, {})).toEqual({ command: 'help' });
    }
  });

  it('refuses a command line it cannot run, naming what is wrong', () => {
    expect(usageError([])).toBe('dcbkit: command is missing: dcbkit doctor <webhook-url>.');
    expect(usageError(['docter', URL_])).toBe('dcbkit: command "docter" is unknown; the command is doctor.');
    expect(usageError(['doctor'])).toMatch(/<webhook-url> is missing/);
    expect(usageError(['doctor', URL_, 'again'])).toMatch(/take one URL; also got "again"/);
    expect(usageError(['doctor', 'shop.example/webhooks'])).toMatch(/must be an absolute http\(s\) URL/);
    expect(usageError(['doctor', 'ftp://shop.example/webhooks'])).toMatch(/must be an http\(s\) URL/);
    expect(usageError(['doctor', URL_], {})).toMatch(
      /--secret is missing: pass --secret or set DCB_WEBHOOK_SECRET/,
    );
    expect(usageError(['doctor', URL_, '--secret', ' , '], {})).toMatch(/--secret is missing/);
    expect(usageError(['doctor', URL_, '--timeout-ms', 'soon'])).toMatch(
      /--timeout-ms must be a whole number.*"soon"/,
    );
    expect(usageError(['doctor', URL_, '--timeout-ms', '99'])).toMatch(/from 100 to 30000/);
    expect(usageError(['doctor', URL_, '--timeout-ms', '30001'])).toMatch(/from 100 to 30000/);
    expect(usageError(['doctor', URL_, '--secert', 'x'])).toMatch(/^dcbkit: Unknown option '--secert'/);
    expect(usageError(['doctor', URL_, '--secret'])).toMatch(
      /^dcbkit: Option '--secret <value>' argument missing/,
    );
  });
});
