import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmInstall, packPackages, ROOT, useTarballs } from '../support/pack-packages.js';

// Each starter copied out of the monorepo, as a partner takes it: the workspace packages packed
// once with `pnpm pack` (which rewrites workspace:^ to versions), the starter's @dcbkit
// dependencies pointed at those tarballs, a plain `npm install`, `npm start`, and one payment.

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
    Object.assign(tarballOf, packPackages(PACKAGES, join(work, 'tarballs')));
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
      useTarballs(manifest, tarballOf);
      writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

      npmInstall(app, ['--omit=dev'], INSTALL_TIMEOUT_MS);

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
