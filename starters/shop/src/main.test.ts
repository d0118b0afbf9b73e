import { execFile, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startSandbox } from '@dcbkit/sandbox';
import { describe, expect, it } from 'vitest';
import { copyOfMigratedDataFolder } from './test-support/migrated-data-folder.js';

const STARTER = fileURLToPath(new URL('..', import.meta.url));
// Node's options of this run, if any, for `src/main.ts` too (in the dcbkit repository, the
// condition that picks the Koa shop).
const NODE_OPTIONS = process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {};

describe('npm start with an incomplete configuration', () => {
  it('prints one clear message naming each problem, no stack, and exits 1', async () => {
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: STARTER,
      env: {
        PATH: process.env.PATH,
        ...NODE_OPTIONS,
        DCB_ENV: 'sandbox',
        DCB_CLIENT_ID: 'svc_live_oops',
        PORT: '0',
      },
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

  it('names a port in use and the command of the package manager that ran it', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: STARTER,
        env: {
          PATH: process.env.PATH,
          ...NODE_OPTIONS,
          PORT: String(port),
          npm_config_user_agent: 'npm/11.0.0 node/v20',
        },
      });
      const failure = (await run.then(
        () => undefined,
        (error: unknown) => error,
      )) as { code?: number; stderr?: string } | undefined;
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain(`Port ${port} is already in use`);
      expect(failure?.stderr).toContain(`PORT=${port + 1} npm start`);
    } finally {
      taken.close();
    }
  }, 30_000);
});

describe('npm start with credentials the service refuses', () => {
  it('prints the failure once, the variable to fix first, and no JSON line with a stack', async () => {
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    const dataDir = await copyOfMigratedDataFolder(join(tmpdir(), `shop-refused-${process.pid}`));
    try {
      const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: STARTER,
        env: {
          PATH: process.env.PATH,
          ...NODE_OPTIONS,
          DCB_ENV: 'sandbox',
          DCB_API_BASE_URL: sandbox.apiBaseUrl,
          DCB_CLIENT_ID: sandbox.credentials.clientId,
          DCB_CLIENT_SECRET: 'not-the-secret',
          DCB_WEBHOOK_SECRET: sandbox.credentials.webhookSecret,
          SESSION_SECRET: 'x'.repeat(40),
          DATA_DIR: dataDir,
          PORT: '0',
        },
      });
      const failure = (await run.then(
        () => undefined,
        (error: unknown) => error,
      )) as { code?: number; stderr?: string; stdout?: string } | undefined;
      expect(failure?.code).toBe(1);
      const printed = `${failure?.stdout ?? ''}${failure?.stderr ?? ''}`;
      const lines = (failure?.stderr ?? '').trim().split('\n');
      expect(lines[0]).toBe(
        'The shop cannot start. Fix DCB_CLIENT_ID and DCB_CLIENT_SECRET: the credentials of the DCB_ENV environment, as its console (or the sandbox) shows them.',
      );
      expect(lines[1]).toContain('The token request was refused (HTTP 401, ATH-001');
      expect(printed.split('The token request was refused').length - 1).toBe(1);
      expect(printed).not.toContain('"level"');
      expect(printed).not.toMatch(/^\s+at /m);
    } finally {
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('npm start on the service', () => {
  it('says which checkout host buyers are sent to, and the command that checks it', async () => {
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    const dataDir = await copyOfMigratedDataFolder(join(tmpdir(), `shop-banner-${process.pid}`));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: STARTER,
      env: {
        PATH: process.env.PATH,
        ...NODE_OPTIONS,
        DCB_ENV: 'sandbox',
        DCB_API_BASE_URL: sandbox.apiBaseUrl,
        DCB_CHECKOUT_BASE_URL: 'https://checkout.wrong.example',
        DCB_CLIENT_ID: sandbox.credentials.clientId,
        DCB_CLIENT_SECRET: sandbox.credentials.clientSecret,
        DCB_WEBHOOK_SECRET: sandbox.credentials.webhookSecret,
        SESSION_SECRET: 'x'.repeat(40),
        DATA_DIR: dataDir,
        RECONCILE_EVERY_MINUTES: '0',
        PORT: '0',
      },
    });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Ctrl+C')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      expect(out).toMatch(
        /checkout host: https:\/\/checkout\.wrong\.example; check it: npx dcbkit doctor http:\/\/127\.0\.0\.1:\d+\/webhooks\/dcb --offer <offerUid>/,
      );
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('npm start on the embedded sandbox', () => {
  it("prints the shop's address, the sandbox's and its SMS inbox", async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: STARTER,
      env: { PATH: process.env.PATH, ...NODE_OPTIONS, PORT: '0' },
    });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Ctrl+C')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      expect(out).toMatch(/Shop running at http:\/\/127\.0\.0\.1:\d+/);
      expect(out).toMatch(/sandbox: http:\/\/127\.0\.0\.1:\d+\/sandbox/);
      expect(out).toMatch(/SMS inbox: http:\/\/127\.0\.0\.1:\d+\/sandbox\/inbox/);
      // The operations view, with the password made for this run, and the reconciler.
      expect(out).toMatch(/operations: http:\/\/127\.0\.0\.1:\d+\/ops \(password for this run: [\w-]{24}\)/);
      expect(out).toContain('reconciliation: every 15 minutes');
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);
});
