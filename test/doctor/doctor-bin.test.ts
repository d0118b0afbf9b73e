/**
 * The built `dcbkit` command as a partner runs it (`npx dcbkit doctor <url>`): a child process of
 * the committed launcher and of dist/cli.js, its exit codes and its output. It runs on the build
 * (`pnpm test` builds first).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../support/listen.js';
import { kitReceiver } from './broken-apps.js';

const launcher = fileURLToPath(new URL('../../packages/core/bin/dcbkit.js', import.meta.url));
const built = fileURLToPath(new URL('../../packages/core/dist/cli.js', import.meta.url));
const SECRET = 'whsec_for_the_bin_test';

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[], env: Record<string, string> = {}): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      // Only what the command needs: no DCB_WEBHOOK_SECRET from the machine running the tests.
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

describe.runIf(existsSync(built))('the dcbkit bin', () => {
  let receiver: RunningServer;
  beforeAll(async () => {
    receiver = await listen(kitReceiver(SECRET));
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('exits 0 with the report of a healthy receiver, the secret from DCB_WEBHOOK_SECRET', async () => {
    const result = await run(launcher, ['doctor', `${receiver.url}/webhooks/dcb`], {
      DCB_WEBHOOK_SECRET: SECRET,
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      /^dcbkit doctor: POST http:\/\/127\.0\.0\.1:\d+\/webhooks\/dcb \(run [0-9a-f]{12}\)/,
    );
    expect(result.stdout).toContain('Healthy: every probe was answered as the spec expects.');
  });

  it('exits 1 with the finding, as JSON, when the secret differs', async () => {
    const result = await run(built, [
      'doctor',
      `${receiver.url}/webhooks/dcb`,
      '--secret',
      'whsec_other',
      '--json',
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).findings.map((finding: { code: string }) => finding.code)).toEqual([
      'wrong_secret',
    ]);
  });

  it('exits 2 on a usage error, and 0 on --help', async () => {
    const usage = await run(launcher, ['doctor', `${receiver.url}/webhooks/dcb`]);
    expect(usage.code).toBe(2);
    expect(usage.stdout).toBe('');
    expect(usage.stderr).toMatch(/^dcbkit doctor: --secret is missing/);
    const help = await run(launcher, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: dcbkit doctor <webhook-url>/);
  });
});
