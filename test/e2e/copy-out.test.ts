import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Each starter copied out of the monorepo, as a partner takes it: the workspace packages packed
// once with `pnpm pack` (which rewrites workspace:^ to versions), the starter's @dcbkit
// dependencies pointed at those tarballs, a plain `npm install`, `npm start`, and one payment.
//
// It packs the packages' dist/ as they are: `pnpm test` builds them first; run alone, this test
// builds the packages when one has no dist/.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGES = ['core', 'express', 'koa', 'sandbox', 'store-postgres'] as const;
const STARTERS = [
  { name: 'Express', folder: 'express' },
  { name: 'Koa', folder: 'koa' },
];
/** What a partner copies: everything but installed modules and local data. */
const STARTER_ENTRIES = ['package.json', 'README.md', 'tsconfig.json', 'src', 'views', 'locales', 'public'];

const INSTALL_TIMEOUT_MS = 150_000;

describe('the starters copied out of the monorepo', () => {
  let work: string;
  /** Each packed package's tarball, by package name. */
  const tarballOf: Record<string, string> = {};

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'dcbkit-starter-'));
    const missingBuild = PACKAGES.some((name) => !existsSync(join(ROOT, 'packages', name, 'dist')));
    if (missingBuild) {
      const filters = PACKAGES.flatMap((name) => ['--filter', `./packages/${name}`]);
      execFileSync('pnpm', [...filters, 'build'], { cwd: ROOT, stdio: 'ignore' });
    }

    const tarballs = join(work, 'tarballs');
    for (const name of PACKAGES) {
      const dir = join(ROOT, 'packages', name);
      const before = new Set(existsSync(tarballs) ? readdirSync(tarballs) : []);
      execFileSync('pnpm', ['pack', '--pack-destination', tarballs], { cwd: dir, stdio: 'ignore' });
      const packed = readdirSync(tarballs).find((file) => !before.has(file));
      if (!packed) throw new Error(`pnpm pack made no tarball for ${name}`);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string };
      tarballOf[manifest.name] = join(tarballs, packed);
    }
  }, 120_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe.each(STARTERS)('the $name starter', ({ folder }) => {
    let shop: ChildProcess | undefined;
    let shopUrl: string;

    beforeAll(async () => {
      const starter = join(ROOT, 'starters', folder);
      const app = join(work, `shop-${folder}`);
      for (const entry of STARTER_ENTRIES) {
        if (existsSync(join(starter, entry)))
          cpSync(join(starter, entry), join(app, entry), { recursive: true });
      }
      const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
        overrides?: Record<string, string>;
      };
      for (const [name, tarball] of Object.entries(tarballOf)) {
        if (manifest.dependencies[name] !== undefined) manifest.dependencies[name] = `file:${tarball}`;
      }
      // The packed packages depend on each other by version (@dcbkit/core ^0.1.0): the local
      // tarballs stand for those versions too, as the registry's copies would once published.
      manifest.overrides = Object.fromEntries(
        Object.entries(tarballOf).map(([name, tarball]) => [name, `file:${tarball}`]),
      );
      writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

      execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: app,
        stdio: 'ignore',
        timeout: INSTALL_TIMEOUT_MS,
        env: { ...process.env, npm_config_update_notifier: 'false' },
      });

      // No DCB_* variable: the embedded sandbox. PORT=0: a free port, printed on the first line.
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !name.startsWith('DCB_') && name !== 'SESSION_SECRET'),
      );
      shop = spawn('npm', ['start', '--silent'], {
        cwd: app,
        env: { ...env, PORT: '0', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      shopUrl = await new Promise<string>((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`the shop did not start:\n${output}`)), 30_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Shop running at (http:\/\/\S+)/.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        };
        shop?.stdout?.on('data', read);
        shop?.stderr?.on('data', read);
        shop?.once('exit', (code) => reject(new Error(`the shop exited with ${code}:\n${output}`)));
      });
    }, INSTALL_TIMEOUT_MS + 60_000);

    afterAll(() => {
      // npm start runs node in a child: end the whole group this test started.
      if (shop?.pid !== undefined && shop.exitCode === null) process.kill(-shop.pid, 'SIGTERM');
    });

    it('installs from the packed tarballs with npm, starts, and takes a payment', async () => {
      const cookies = new Map<string, string>();
      const request = async (path: string, init: RequestInit = {}) => {
        const response = await fetch(new URL(path, shopUrl), {
          ...init,
          redirect: 'manual',
          headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader(cookies) },
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const equals = pair.indexOf('=');
          cookies.set(pair.slice(0, equals), pair.slice(equals + 1));
        }
        return response;
      };
      const form = (fields: Record<string, string>) => ({
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });

      const signedIn = await request('/sign-in', form({ accountId: 'demo-amira', next: '/' }));
      expect(signedIn.status).toBe(303);

      const offers = await (await request('/')).text();
      const dayPassForm = /<li class="card" id="offer_day_pass">[\s\S]*?name="token" value="([^"]+)"/.exec(
        offers,
      );
      expect(dayPassForm?.[1]).toBeDefined();
      const checkout = await request(
        '/checkout',
        form({ offerUid: 'offer_day_pass', token: dayPassForm?.[1] ?? '' }),
      );
      expect(checkout.status).toBe(303);
      const checkoutUrl = checkout.headers.get('location') ?? '';

      // The embedded sandbox serves its API and checkout on one origin.
      const driver = createCheckoutDriver(new URL(checkoutUrl).origin);
      const outcome = await driver.pay(checkoutUrl);
      expect(outcome.status).toBe('SUCCEEDED');
      expect(outcome.returnUrl?.origin).toBe(new URL(shopUrl).origin);

      const returned = await request(`${outcome.returnUrl?.pathname}${outcome.returnUrl?.search}`);
      expect(returned.status).toBe(200);
      expect(await returned.text()).toContain('Thank you');
      const account = await (await request('/account')).text();
      expect(account).toContain('1 of 1');
    });
  });
});

function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}
