import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const STARTER = fileURLToPath(new URL('..', import.meta.url));

describe('pnpm start with an incomplete configuration', () => {
  it('prints one clear message naming each problem, no stack, and exits 1', async () => {
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: STARTER,
      env: { PATH: process.env.PATH, DCB_ENV: 'sandbox', DCB_CLIENT_ID: 'svc_live_oops', PORT: '0' },
    });
    const failure = (await run.then(
      () => undefined,
      (error: unknown) => error,
    )) as { code?: number; stderr?: string; stdout?: string } | undefined;
    expect(failure?.code).toBe(1);
    const stderr = failure?.stderr ?? '';
    expect(stderr).toContain('DCB_CLIENT_ID must start with svc_test_');
    expect(stderr).toContain('DCB_CLIENT_SECRET is not set');
    expect(stderr).toContain('SESSION_SECRET is not set');
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(failure?.stdout ?? '').not.toContain('Shop running');
  }, 30_000);
});
