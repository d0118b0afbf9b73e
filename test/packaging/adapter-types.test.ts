import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmInstall, packPackages, ROOT, useTarballs } from '../support/pack-packages.js';

// A TypeScript app per adapter, installed with npm as the adapter's install lines say (the packed
// packages, the framework, its type package as a dev dependency), type-checked with strict on
// and skipLibCheck off: the adapter's declarations must resolve, and keep the request typed so a
// misuse fails to compile instead of passing as `any`.

const INSTALL_TIMEOUT_MS = 150_000;

const KIT = `import { createDcbKit } from '@dcbkit/core';

export const kit = createDcbKit({
  client: { environment: 'sandbox', baseUrl: 'http://127.0.0.1:1', clientId: 'client', clientSecret: 'secret' },
  webhookSecrets: 'whsec_test',
  returnUrl: 'http://127.0.0.1:3000/billing/return',
  offers: [],
});
`;

const FRAMEWORKS = [
  {
    adapter: 'express',
    dependencies: { express: '^5.1.0' },
    devDependencies: { '@types/express': '^5.0.0' },
    app: `import { createExpressRoutes, createExpressWebhook } from '@dcbkit/express';
import express from 'express';
import { kit } from './kit.js';

const app = express();
app.post('/webhooks/dcb', createExpressWebhook(kit.webhook));
const dcb = createExpressRoutes({ routes: kit.routes, signedInAccount: (req) => req.header('x-account'), offersPage: '/' });
app.post('/billing/checkout', dcb.checkout());
app.get('/billing/return', dcb.returnPage());
app.get('/premium', dcb.requireAccess('prod_premium'), (_req, res) => {
  res.send('premium');
});
`,
    misuse: ["req.header('x-account')", 'req.notAnExpressMethod()'],
    expected: "Property 'notAnExpressMethod' does not exist on type 'Request",
  },
  {
    adapter: 'koa',
    dependencies: { koa: '^3.0.0', '@koa/router': '^15.0.0' },
    devDependencies: { '@types/koa': '^3.0.0' },
    app: `import { createKoaRoutes, createKoaWebhook } from '@dcbkit/koa';
import Router from '@koa/router';
import Koa from 'koa';
import { kit } from './kit.js';

const app = new Koa();
const router = new Router();
router.post('/webhooks/dcb', createKoaWebhook(kit.webhook));
const dcb = createKoaRoutes({ routes: kit.routes, signedInAccount: (ctx) => ctx.get('x-account') || undefined, offersPage: '/' });
router.post('/billing/checkout', dcb.checkout());
router.get('/billing/return', dcb.returnPage());
router.get('/premium', dcb.requireAccess('prod_premium'), (ctx) => {
  ctx.body = 'premium';
});
app.use(router.routes());
`,
    // Koa's context takes any property by design (its DefaultContext); its request does not.
    misuse: ["ctx.get('x-account') || undefined", 'ctx.request.notAKoaMethod()'],
    expected: "Property 'notAKoaMethod' does not exist on type 'Request'",
  },
] as const;

describe('each adapter in a strict TypeScript app installed with npm', () => {
  let work: string;
  let tarballOf: Record<string, string>;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'dcbkit-types-'));
    tarballOf = packPackages(['core', 'express', 'koa'], join(work, 'tarballs'));
  }, 120_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe.each(FRAMEWORKS)('@dcbkit/$adapter', (framework) => {
    let app: string;

    beforeAll(() => {
      app = join(work, framework.adapter);
      mkdirSync(join(app, 'src'), { recursive: true });
      const manifest = {
        name: `typed-${framework.adapter}-app`,
        private: true,
        type: 'module',
        dependencies: {
          '@dcbkit/core': '*',
          [`@dcbkit/${framework.adapter}`]: '*',
          ...framework.dependencies,
        } as Record<string, string>,
        devDependencies: framework.devDependencies,
      };
      useTarballs(manifest, tarballOf);
      writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            skipLibCheck: false,
            noEmit: true,
          },
          include: ['src'],
        }),
      );
      writeFileSync(join(app, 'src', 'kit.ts'), KIT);
      npmInstall(app, [], INSTALL_TIMEOUT_MS);
    }, INSTALL_TIMEOUT_MS + 10_000);

    /** The compiler's diagnostics for the app, or '' when it compiles. */
    const typeCheck = (source: string): string => {
      writeFileSync(join(app, 'src', 'app.ts'), source);
      try {
        execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], {
          encoding: 'utf8',
        });
        return '';
      } catch (error) {
        return String((error as { stdout?: string }).stdout ?? error);
      }
    };

    it('compiles the documented wiring with no error in any declaration file', () => {
      expect(typeCheck(framework.app)).toBe('');
    });

    it('keeps the request typed: a misuse is a compile error, not any', () => {
      const [documented, misused] = framework.misuse;
      expect(framework.app).toContain(documented);
      expect(typeCheck(framework.app.replace(documented, misused))).toContain(framework.expected);
    });
  });
});
