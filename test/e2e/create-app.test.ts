import { type ChildProcess, execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../examples/test-support/free-port.js';
import { ROOT } from '../support/pack-packages.js';

// What a partner does from a fresh clone: the built create-dcbkit-app writes an app into an empty
// folder outside the repository (the repository's packages packed into it), plain `npm install`,
// the app's own `npm test` and type check, then the app started against the standalone sandbox
// (`npx dcbkit-sandbox`, the app's own bin) with the variables its README lists: one payment,
// its webhook received, and the entitlement still there after a restart (PGlite in .data/).

/**
 * The app's own tests it runs here: what proves the written app's files, packages and bins work
 * together (it starts, its Dockerfile and variables hold, the partner check passes on it, its
 * pages and headers). The whole suite is the shop template's, which the repository already runs
 * under Express and Koa (the shop-express and shop-koa projects): a third and fourth copy of it
 * here cost CI about three minutes of two busy cores.
 */
const OWN_TESTS = [
  'src/main.test.ts',
  'src/dockerfile.test.ts',
  'src/env-example.test.ts',
  'src/partner-check.test.ts',
  'src/routes/account.test.ts',
  'src/security.test.ts',
];
const FRAMEWORKS = [
  { name: 'Express', framework: 'express' },
  { name: 'Koa', framework: 'koa' },
];
const GENERATOR = join(ROOT, 'packages', 'create-dcbkit-app');
const INSTALL_TIMEOUT_MS = 240_000;
const STEP_TIMEOUT_MS = 120_000;
/**
 * A hang guard, not a time the app's `npm test` must keep to (about 30 s on two cores, see its
 * README): in a full run, beside two other test files on two busy cores, it once took over 120 s.
 */
const APP_TESTS_TIMEOUT_MS = 360_000;

/** Plain npm, as a partner runs it, quietly; the registry's cache serves what the tarballs do not. */
function npm(args: string[], cwd: string, timeout = STEP_TIMEOUT_MS): string {
  // npm's own flags before the command's (after a `--` they would be the script's).
  const [command = '', ...rest] = args;
  return execFileSync('npm', [command, '--no-audit', '--no-fund', '--loglevel=error', ...rest], {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, npm_config_update_notifier: 'false', CI: 'true', NO_COLOR: '1' },
  });
}

/**
 * `npm install` as a partner runs it, at npm's own log level: what it warns about, the partner
 * reads. Resolves to its warnings; rejects when it fails.
 */
function npmInstall(cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      ['install', '--no-audit', '--no-fund'],
      {
        cwd,
        encoding: 'utf8',
        timeout: INSTALL_TIMEOUT_MS,
        env: { ...process.env, npm_config_update_notifier: 'false', CI: 'true', NO_COLOR: '1' },
      },
      (error, _stdout, stderr) => {
        if (error) reject(new Error(`npm install failed (${error.code}): ${stderr}`));
        else resolve(stderr);
      },
    );
  });
}

/** What create-dcbkit-app printed writing an app, and what npm warned installing it. */
interface Created {
  printed: string;
  installWarnings: string;
}

/** The app create-dcbkit-app writes for `framework` in `app`, installed. */
async function createAndInstall(work: string, app: string, framework: string): Promise<Created> {
  const printed = execFileSync(
    process.execPath,
    [join(GENERATOR, 'bin', 'create-dcbkit-app.js'), app, '--framework', framework],
    { cwd: work, encoding: 'utf8', timeout: STEP_TIMEOUT_MS },
  );
  return { printed, installWarnings: await npmInstall(app) };
}

describe('create-dcbkit-app, from a clone of the repository', () => {
  let work: string;

  const created = new Map<string, Promise<Created>>();

  // Both apps written, then installed at once: npm waits on the registry, and two installs in a
  // row were a third of this file's time.
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'dcbkit-create-app-'));
    if (!existsSync(join(GENERATOR, 'dist', 'cli.js'))) {
      execFileSync('pnpm', ['--filter', 'create-dcbkit-app', 'build'], { cwd: ROOT, stdio: 'ignore' });
    }
    for (const { framework } of FRAMEWORKS) {
      const installed = createAndInstall(work, join(work, `shop-${framework}`), framework);
      // Awaited by the app's own beforeAll; a failure is reported there, not as unhandled here.
      installed.catch(() => {});
      created.set(framework, installed);
    }
  }, 60_000);

  // Two apps' node_modules: removing them takes longer than the default hook timeout on a busy machine.
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  describe.each(FRAMEWORKS)('a $name app', ({ framework }) => {
    let app: string;
    let printed: string;
    let installWarnings: string;

    beforeAll(async () => {
      app = join(work, `shop-${framework}`);
      ({ printed, installWarnings } = await (created.get(framework) as Promise<Created>));
    }, INSTALL_TIMEOUT_MS + STEP_TIMEOUT_MS);

    it('installs without npm asking to review install scripts (allowScripts covers esbuild’s)', () => {
      expect(installWarnings).not.toMatch(/install-scripts|allowScripts/);
    });

    it('is written standalone: its packages packed beside it, its .gitignore, its variables', () => {
      expect(printed).toContain('local packages mode');
      const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
      expect(manifest.dependencies[`@dcbkit/${framework}`]).toMatch(/^file:dcbkit-packages\/.+\.tgz$/);
      expect(JSON.stringify(manifest)).not.toContain('workspace:');
      expect(readFileSync(join(app, '.gitignore'), 'utf8')).toMatch(/^\.data\/$/m);
      expect(existsSync(join(app, '.env.example'))).toBe(true);
      expect(readFileSync(join(app, 'Dockerfile'), 'utf8')).toMatch(/HEALTHCHECK[\s\S]*\/health\/live/);
    });

    it('refuses `NODE_ENV=production HOST=0.0.0.0 npm start` without DCB_* variables, listing them (issue 54)', () => {
      // What its Dockerfile sets, without an env file: the embedded sandbox must not serve production.
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !name.startsWith('DCB_')),
      );
      const run = spawnSync('npm', ['start'], {
        cwd: app,
        encoding: 'utf8',
        timeout: STEP_TIMEOUT_MS,
        env: {
          ...env,
          NODE_ENV: 'production',
          HOST: '0.0.0.0',
          PORT: '0',
          npm_config_update_notifier: 'false',
        },
      });
      expect(run.status).not.toBe(0);
      for (const name of [
        'DCB_ENV',
        'DCB_API_BASE_URL',
        'DCB_CLIENT_ID',
        'DCB_CLIENT_SECRET',
        'DCB_WEBHOOK_SECRET',
      ]) {
        expect(run.stderr).toContain(`${name}: `);
      }
      expect(run.stderr).toContain('ALLOW_EMBEDDED_SANDBOX=true');
      expect(run.stdout).not.toContain('Shop running');
    });

    it(
      'passes its own start, packaging, partner check, account and security tests, and its type check',
      () => {
        expect(npm(['test', '--', ...OWN_TESTS], app, APP_TESTS_TIMEOUT_MS)).toMatch(/Tests\s+\d+ passed/);
        npm(['run', 'typecheck'], app);
      },
      APP_TESTS_TIMEOUT_MS + STEP_TIMEOUT_MS,
    );

    it(
      'runs against the standalone sandbox with its README’s variables, is healthy by `dcbkit doctor`, and keeps what was bought across a restart',
      async () => {
        const [shopPort, sandboxPort] = [await freePort(), await freePort()];
        const shopUrl = `http://127.0.0.1:${shopPort}`;
        const sandbox = await startProcess(
          'npx',
          [
            'dcbkit-sandbox',
            '--port',
            String(sandboxPort),
            '--production-port',
            '0',
            '--webhook-url',
            `${shopUrl}/webhooks/dcb`,
          ],
          { cwd: app, env: process.env, ready: /Webhook URL\s+http/ },
        );
        try {
          const env = { ...readmeVariables(app, sandboxPort), PORT: String(shopPort) };
          let shop = await startShop(app, env);
          try {
            const browser = new Browser(shopUrl);
            await browser.buyDayPass();
            expect(await browser.accountPage()).toContain('1 of 1');
            // The sandbox reached the shop's webhook URL: one log line per delivery, answered 200.
            await waitFor(() => /"url":"\/webhooks\/dcb"[^\n]*"statusCode":200/.test(shop.output()), 10_000);
            // The doctor, as the app's README says, from the app's folder against the running shop:
            // every probe answered as the spec expects (it throws on a non-zero exit).
            const doctor = execFileSync('npx', ['dcbkit', 'doctor', `${shopUrl}/webhooks/dcb`], {
              cwd: app,
              encoding: 'utf8',
              timeout: STEP_TIMEOUT_MS,
              env: { ...process.env, ...env },
            });
            expect(doctor).toContain('Healthy: every probe was answered as the spec expects.');
          } finally {
            await shop.stop();
          }

          shop = await startShop(app, env);
          try {
            const browser = new Browser(shopUrl);
            await browser.signIn();
            expect(await browser.accountPage()).toContain('1 of 1');
          } finally {
            await shop.stop();
          }
        } finally {
          await sandbox.stop();
        }
      },
      3 * STEP_TIMEOUT_MS,
    );
  });
});

/**
 * The variables of the README's "standalone sandbox" command (`NAME=value \` lines before `npm
 * start`), pointed at this test's sandbox port instead of the default 4010: the test starts the
 * app exactly as its README says, so a README that drifts from the app fails here.
 */
function readmeVariables(app: string, sandboxPort: number): Record<string, string> {
  const readme = readFileSync(join(app, 'README.md'), 'utf8');
  const block = /```sh\n(DCB_ENV=sandbox[\s\S]*?)npm start\n```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('the README has no `DCB_ENV=sandbox … npm start` block');
  const variables = Object.fromEntries(
    [...block.matchAll(/^([A-Z_]+)=(\S+)/gm)].map(([, name = '', value = '']) => [
      name,
      value.replace('127.0.0.1:4010', `127.0.0.1:${sandboxPort}`),
    ]),
  );
  expect(Object.keys(variables)).toEqual(
    expect.arrayContaining(['DCB_ENV', 'DCB_CLIENT_ID', 'SESSION_SECRET']),
  );
  // Nothing else of this machine's environment decides how the shop runs.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !name.startsWith('DCB_') && !['SESSION_SECRET', 'DATABASE_URL', 'DATA_DIR', 'PORT'].includes(name),
    ),
  );
  return { ...inherited, ...variables, LOG_LEVEL: 'info' } as Record<string, string>;
}

interface Started {
  output(): string;
  stop(): Promise<void>;
}

function startShop(app: string, env: Record<string, string>): Promise<Started> {
  return startProcess('npm', ['start'], { cwd: app, env, ready: /Shop running at http/ });
}

/** A process in a group of its own (npm runs node in a child), ready once `ready` is printed. */
async function startProcess(
  command: string,
  args: string[],
  { cwd, env, ready }: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp },
): Promise<Started> {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} ${args[0]} did not start:\n${output}`)),
      60_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args[0]} exited with ${code}:\n${output}`));
    });
  });
  return {
    output: () => output,
    async stop() {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}

/** A browser's session over fetch: cookies kept, forms posted from the shop's origin. */
class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly shopUrl: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(new URL(path, this.shopUrl), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const equals = pair.indexOf('=');
      this.cookies.set(pair.slice(0, equals), pair.slice(equals + 1));
    }
    return response;
  }

  post(path: string, fields: Record<string, string>): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(this.shopUrl).origin },
      body: new URLSearchParams(fields).toString(),
    });
  }

  async signIn(): Promise<void> {
    expect((await this.post('/sign-in', { accountId: 'demo-amira', next: '/' })).status).toBe(303);
  }

  async buyDayPass(): Promise<void> {
    await this.signIn();
    const offers = await (await this.request('/')).text();
    const token = /<li class="card" id="offer_day_pass">[\s\S]*?name="token" value="([^"]+)"/.exec(
      offers,
    )?.[1];
    expect(token).toBeDefined();
    const checkout = await this.post('/checkout', { offerUid: 'offer_day_pass', token: token ?? '' });
    expect(checkout.status).toBe(303);
    const checkoutUrl = checkout.headers.get('location') ?? '';
    const outcome = await createCheckoutDriver(new URL(checkoutUrl).origin).pay(checkoutUrl);
    expect(outcome.status).toBe('SUCCEEDED');
    expect(outcome.returnUrl?.origin).toBe(new URL(this.shopUrl).origin);
    const returned = await this.request(`${outcome.returnUrl?.pathname}${outcome.returnUrl?.search}`);
    expect(returned.status).toBe(200);
    expect(await returned.text()).toContain('Thank you');
  }

  async accountPage(): Promise<string> {
    const page = await this.request('/account');
    expect(page.status).toBe(200);
    return page.text();
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
