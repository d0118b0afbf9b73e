import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import adapterList from './scripts/adapters.json' with { type: 'json' };
import { SlowestFilesReporter } from './test/support/slowest-files-reporter.js';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const SHOP_TESTS = 'starters/shop/src/**/*.test.ts';
// As the shop's own vitest.config.ts: one PGlite folder made per run, copied by its tests.
const SHOP_SETUP = fromRoot('./starters/shop/src/test-support/migrated-data-folder-setup.ts');
// Vite's own server conditions, with `koa` first.
const KOA_CONDITIONS = ['koa', 'module', 'node', 'development|production'];

// Tests run against sources, not builds, so a change is tested without a rebuild.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@dcbkit\/core\/store$/, replacement: fromRoot('./packages/core/src/store/index.ts') },
      { find: /^@dcbkit\/core\/schemas$/, replacement: fromRoot('./packages/core/src/schemas/index.ts') },
      { find: /^@dcbkit\/core\/node$/, replacement: fromRoot('./packages/core/src/node/index.ts') },
      { find: /^@dcbkit\/core\/webhooks$/, replacement: fromRoot('./packages/core/src/webhooks/index.ts') },
      { find: /^@dcbkit\/core\/web$/, replacement: fromRoot('./packages/core/src/web/index.ts') },
      { find: /^@dcbkit\/core$/, replacement: fromRoot('./packages/core/src/index.ts') },
      {
        find: /^@dcbkit\/sandbox\/testing$/,
        replacement: fromRoot('./packages/sandbox/src/testing/index.ts'),
      },
      { find: /^@dcbkit\/sandbox$/, replacement: fromRoot('./packages/sandbox/src/index.ts') },
      ...adapterList.adapters.map((name) => ({
        find: new RegExp(`^@dcbkit/${name}$`),
        replacement: fromRoot(`./packages/${name}/src/index.ts`),
      })),
      { find: /^@dcbkit\/store-postgres$/, replacement: fromRoot('./packages/store-postgres/src/index.ts') },
    ],
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // After the summary, the ten slowest files: the next one to turn slow shows in every run.
    reporters: ['default', new SlowestFilesReporter(10)],
    // vitest's default, a worker fewer than the cores, runs one file at a time on two cores, while
    // the slowest files mostly wait on npm, Chromium, PostgreSQL or a child process.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'dcbkit',
          include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
        },
      },
      // The shop template's own tests, once per framework: `#framework` (starters/shop/package.json)
      // is Express's part of the app by default and Koa's under the `koa` condition.
      // Its files share their worker's modules, as in the shop's own vitest.config.ts.
      {
        extends: true,
        test: { name: 'shop-express', include: [SHOP_TESTS], globalSetup: [SHOP_SETUP], isolate: false },
      },
      {
        extends: true,
        resolve: { conditions: KOA_CONDITIONS },
        ssr: { resolve: { conditions: KOA_CONDITIONS } },
        // main.test.ts starts `src/main.ts` in a child process: NODE_OPTIONS gives it the condition.
        test: {
          name: 'shop-koa',
          include: [SHOP_TESTS],
          globalSetup: [SHOP_SETUP],
          isolate: false,
          env: { NODE_OPTIONS: '--conditions=koa' },
        },
      },
    ],
  },
});
