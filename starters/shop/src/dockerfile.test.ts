import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DCB_ENV_VARIABLES } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';

// The app's Dockerfile, run as `docker run` without an env file runs it: its ENV and its CMD, in a
// child process from this folder (Docker does not run in the tests). The same file is every
// generated app's, and this test runs in each of them (`npm test`).
const APP = fileURLToPath(new URL('..', import.meta.url));
const NODE_OPTIONS = process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {};

/** The Dockerfile's `ENV NAME=value …` pairs and its CMD's exec form. */
function dockerfile(): { env: Record<string, string>; command: string[] } {
  const text = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
  const envLine = /^ENV (.+)$/m.exec(text)?.[1];
  const cmdLine = /^CMD (\[.+\])$/m.exec(text)?.[1];
  if (envLine === undefined || cmdLine === undefined)
    throw new Error('the Dockerfile has no ENV or no CMD line');
  const env = Object.fromEntries(envLine.split(/\s+/).map((pair) => pair.split('=', 2) as [string, string]));
  return { env, command: JSON.parse(cmdLine) as string[] };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the Dockerfile without DCB_* variables', () => {
  it('sets NODE_ENV=production and HOST=0.0.0.0, the production signs the shop checks', () => {
    expect(dockerfile().env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0' });
  });

  it('refuses to start on the embedded sandbox, listing the DCB_* variables to set, and exits 1', async () => {
    const { env, command } = dockerfile();
    const [node, ...args] = command;
    expect(node).toBe('node');
    const failure = (await promisify(execFile)(process.execPath, args, {
      cwd: APP,
      env: { PATH: process.env.PATH, ...NODE_OPTIONS, ...env, PORT: String(await freePort()) },
    }).then(
      () => undefined,
      (error: unknown) => error,
    )) as { code?: number; stderr?: string; stdout?: string } | undefined;
    expect(failure?.code).toBe(1);
    const stderr = failure?.stderr ?? '';
    expect(stderr).toContain('NODE_ENV=production');
    expect(stderr).toContain('HOST=0.0.0.0 listens beyond this machine');
    for (const name of Object.keys(DCB_ENV_VARIABLES)) expect(stderr).toContain(`${name}: `);
    expect(stderr).toContain('ALLOW_EMBEDDED_SANDBOX=true');
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(failure?.stdout ?? '').not.toContain('Shop running');
  }, 60_000);

  it('starts with ALLOW_EMBEDDED_SANDBOX=true, and readiness and every page say it is the emulator', async () => {
    const { env, command } = dockerfile();
    // The Dockerfile's environment, but on loopback: the test opens nothing beyond this machine
    // (NODE_ENV=production alone is a production sign).
    const child = spawn(process.execPath, command.slice(1), {
      cwd: APP,
      env: {
        PATH: process.env.PATH,
        ...NODE_OPTIONS,
        ...env,
        HOST: '127.0.0.1',
        PORT: '0',
        ALLOW_EMBEDDED_SANDBOX: 'true',
        RECONCILE_EVERY_MINUTES: '0',
      },
    });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Ctrl+C')) resolve();
        });
        child.stderr.on('data', (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      expect(out).toContain('EMULATOR IN PRODUCTION');
      const url = /Shop running at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      const ready = await fetch(`${url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ready: true, billing: 'emulator' });
      for (const path of ['/', '/sign-in', '/premium', '/no-such-page']) {
        const page = await (await fetch(`${url}${path}`, { headers: { 'accept-language': 'en' } })).text();
        expect(page, path).toContain(
          '<strong class="emulator">Emulator: purchases are kept in memory and end with the shop.</strong>',
        );
      }
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  }, 60_000);
});
