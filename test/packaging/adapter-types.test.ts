import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import adapterList from '../../scripts/adapters.json' with { type: 'json' };
import { npmInstallAsync, packPackages, ROOT, useTarballs } from '../support/pack-packages.js';

const execFileAsync = promisify(execFile);

// A TypeScript app per adapter, installed with npm as the adapter's install lines say (the packed
// packages, the framework, its type package as a dev dependency), type-checked with strict on
// and skipLibCheck off: the adapter's declarations must resolve, and keep the request typed so a
// misuse fails to compile instead of passing as `any`.

const INSTALL_TIMEOUT_MS = 150_000;
/** Five compilations, two at a time, with skipLibCheck off (Next.js's declarations are large). */
const COMPILE_TIMEOUT_MS = 150_000;

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
  {
    adapter: 'fastify',
    // Fastify ships its own declarations, written against Node's (@types/node, in any TypeScript Node app).
    dependencies: { fastify: '^5.0.0' },
    devDependencies: { '@types/node': '^20.19.0' },
    app: `import { createFastifyRoutes, fastifyDcbkit } from '@dcbkit/fastify';
import Fastify from 'fastify';
import { kit } from './kit.js';

const app = Fastify();
const dcb = createFastifyRoutes({ routes: kit.routes, signedInAccount: (request) => request.headers['x-account']?.toString(), offersPage: '/' });
await app.register(fastifyDcbkit, {
  webhook: kit.webhook,
  mount(billing) {
    billing.post('/billing/checkout', dcb.checkout());
    billing.get('/billing/return', dcb.returnPage());
  },
});
app.get('/premium', { preHandler: dcb.requireAccess('prod_premium') }, async () => 'premium');
`,
    misuse: ["request.headers['x-account']?.toString()", 'request.notAFastifyMethod()'],
    expected: "Property 'notAFastifyMethod' does not exist on type 'FastifyRequest",
  },
  {
    adapter: 'hono',
    // Hono ships its own declarations, on the web's Request and Response.
    dependencies: { hono: '^4.0.0' },
    devDependencies: {},
    app: `import { createHonoRoutes, createHonoWebhook } from '@dcbkit/hono';
import { Hono } from 'hono';
import { kit } from './kit.js';

type AppEnv = { Variables: { userId: string | undefined } };

const app = new Hono<AppEnv>();
app.post('/webhooks/dcb', createHonoWebhook(kit.webhook));
const dcb = createHonoRoutes<AppEnv>({ routes: kit.routes, signedInAccount: (c) => c.get('userId'), offersPage: '/' });
app.post('/billing/checkout', dcb.checkout());
app.get('/billing/return', dcb.returnPage());
app.post('/billing/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
app.get('/premium', dcb.requireAccess('prod_premium'), (c) => c.text('premium'));
`,
    misuse: ["c.get('userId')", 'c.notAHonoMethod()'],
    expected: "Property 'notAHonoMethod' does not exist on type 'Context",
  },
  {
    adapter: 'next',
    // next and its peers (react, react-dom: npm installs them); Next.js's declarations need React's and Node's.
    dependencies: { next: '^16.0.0' },
    devDependencies: { '@types/node': '^20.19.0', '@types/react': '^19.0.0' },
    // As create-next-app sets it: Next.js's subpaths (next/server) have no `exports` map for NodeNext.
    moduleResolution: 'Bundler',
    // Next.js's own declarations do not compile with skipLibCheck off (create-next-app turns it
    // on): their errors are left out, every other declaration file (dcbkit's) is still checked.
    foreignDeclarations: '/node_modules/next/',
    // Route handlers as Next.js 16 checks them (its RouteHandlerConfig): each export must take
    // (NextRequest, { params: Promise<the folder's segments> }).
    app: `import { configFromEnv, createDcbKit } from '@dcbkit/core';
import { createNextHandlers } from '@dcbkit/next';
import type { NextRequest } from 'next/server';

type RouteHandler<Params> = (request: NextRequest, context: { params: Promise<Params> }) => Promise<Response>;

const dcb = createNextHandlers({
  kit: () => createDcbKit({ ...configFromEnv(process.env), offers: [] }),
  signedInAccount: (request) => request.headers.get('x-account') ?? undefined,
  offersPage: '/',
});
export const webhookPOST: RouteHandler<{}> = dcb.webhook();
export const checkoutPOST: RouteHandler<{}> = dcb.checkout();
export const returnGET: RouteHandler<{}> = dcb.returnPage();
export const cancelPOST: RouteHandler<{ subscriptionUid: string }> = dcb.cancelSubscription();
export const premiumGET: RouteHandler<{}> = async (request) =>
  (await dcb.requireAccess('prod_premium')(request)) ?? new Response('premium');
`,
    misuse: ["request.headers.get('x-account')", 'request.notARequestMethod()'],
    expected: "Property 'notARequestMethod' does not exist on type 'Request'",
  },
] as const;

/** The compiler's diagnostics for a file of the app, less those in the framework's own declarations. */
interface Checked {
  documented: string;
  misused: string;
}

// Outside the describe below, so that it runs without its installs.
it('has an app for every adapter of scripts/adapters.json', () => {
  expect(FRAMEWORKS.map((framework) => framework.adapter).sort()).toEqual([...adapterList.adapters].sort());
});

describe('each adapter in a strict TypeScript app installed with npm', () => {
  let work: string;
  const checked = new Map<string, Checked>();

  // Every app written, then installed at once (npm waits on the network, not on the CPU), then
  // each compiled once with its documented wiring and its misuse as two files of one program: ten
  // compilations and five installs in a row took two minutes and timed out on a busy machine.
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'dcbkit-types-'));
    const tarballOf = packPackages(['core', ...adapterList.adapters], join(work, 'tarballs'));
    const apps = FRAMEWORKS.map((framework) => ({
      framework,
      dir: writeApp(join(work, framework.adapter), framework, tarballOf),
    }));
    await Promise.all(apps.map(({ dir }) => npmInstallAsync(dir, [], INSTALL_TIMEOUT_MS)));
    await inTurns(apps, 2, async ({ framework, dir }) => {
      checked.set(framework.adapter, await typeCheck(dir, framework));
    });
  }, INSTALL_TIMEOUT_MS + COMPILE_TIMEOUT_MS);

  // Five apps' node_modules (Next.js's among them): more than the default hook timeout on a busy machine.
  afterAll(() => rm(work, { recursive: true, force: true }), 120_000);

  describe.each(FRAMEWORKS)('@dcbkit/$adapter', (framework) => {
    it('compiles the documented wiring with no error in any declaration file', () => {
      expect(checked.get(framework.adapter)?.documented).toBe('');
    });

    it('keeps the request typed: a misuse is a compile error, not any', () => {
      const [documented] = framework.misuse;
      expect(framework.app).toContain(documented);
      expect(checked.get(framework.adapter)?.misused).toContain(framework.expected);
    });
  });
});

type Framework = (typeof FRAMEWORKS)[number];

/** The app of one adapter: its manifest, tsconfig, kit, documented wiring and the same with the misuse. */
function writeApp(app: string, framework: Framework, tarballOf: Record<string, string>): string {
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
        ...('moduleResolution' in framework
          ? { module: 'ESNext', moduleResolution: framework.moduleResolution }
          : {}),
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      },
      include: ['src'],
    }),
  );
  const [documented, misused] = framework.misuse;
  writeFileSync(join(app, 'src', 'kit.ts'), KIT);
  writeFileSync(join(app, 'src', 'app.ts'), framework.app);
  writeFileSync(join(app, 'src', 'misused.ts'), framework.app.replace(documented, misused));
  return app;
}

/** One `tsc` over the app: its diagnostics for each of the two wirings ('' when that file compiles). */
async function typeCheck(app: string, framework: Framework): Promise<Checked> {
  const output = await execFileAsync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app],
    {
      encoding: 'utf8',
      timeout: COMPILE_TIMEOUT_MS,
    },
  ).then(
    () => '',
    (error: { stdout?: string }) => {
      if (typeof error.stdout !== 'string') throw error;
      return error.stdout;
    },
  );
  const kept = withoutForeignErrors(output, framework);
  return {
    documented: errorsOutside(kept, '/src/misused.ts('),
    misused: errorsOutside(kept, '/src/app.ts('),
  };
}

/**
 * The diagnostics (each with its indented detail lines) of every file but `other`: the one wiring's
 * own, and any declaration file's, so that an error there fails both cases.
 */
function errorsOutside(output: string, other: string): string {
  let keep = false;
  const kept = output.split('\n').filter((line) => {
    if (!line.startsWith(' ')) keep = !line.includes(other);
    return keep;
  });
  return kept.join('\n').trim();
}

/** The diagnostics, less those (and their indented detail lines) in the framework's own declarations. */
function withoutForeignErrors(output: string, framework: Framework): string {
  if (!('foreignDeclarations' in framework)) return output;
  let foreign = false;
  const kept = output.split('\n').filter((line) => {
    if (!line.startsWith(' ')) foreign = line.includes(framework.foreignDeclarations);
    return !foreign;
  });
  return kept.join('\n').trim();
}

/** Runs `task` over `items`, at most `concurrency` at a time. */
async function inTurns<T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
    }),
  );
}
