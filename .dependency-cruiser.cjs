// Architecture rules for `pnpm check:layers` (scripts/check-layers.mjs runs dependency-cruiser with
// this file; `pnpm exec depcruise packages/*/src starters/*/src --config .dependency-cruiser.cjs`
// works too). The shop template, starters/shop, is checked as a package is.
//
// LAYERS: for each package, the top-level folders of its src/ from the bottom layer up. A module in
// folder X may import modules of X itself and of the folders listed BEFORE X, nothing else of its
// package: not a folder listed after X, not a folder missing from the list, not a file directly in
// src/. Files directly in src/ (index.ts, …) are the top layer and may import anything (in a
// SHARED_ROOT package, any folder may import them instead). Test files (*.test.ts) are not cruised at all; a folder named test-support (at any
// depth) may import anything of its package, but production code may not import it. An empty list
// means "flat package": only the cycle rule applies. A listed folder that does not exist yet is fine.
// An entry may be a list of peers, one rank: each may import the folders listed before the group,
// and neither the other (core's node/ and web/, the two adapter plumbings over the same core).
const { adapters: ADAPTERS } = require('./scripts/adapters.json');

const layers = {
  'packages/core': [
    'schemas',
    'errors',
    'http',
    'observability',
    'access',
    'offers',
    'ledger',
    // The business view's facts and buckets: pure, read by the store, written by apply.
    'metrics',
    'store',
    'apply',
    'client',
    'webhooks',
    'routes',
    'reconcile',
    ['node', 'web'],
    'kit',
    // The `dcbkit` command (`dcbkit doctor`): core's top; beyond core it imports node builtins only.
    'cli',
  ],
  // The adapters (scripts/adapters.json): all files directly in src/, only the cycle rule.
  ...Object.fromEntries(ADAPTERS.map((name) => [`packages/${name}`, []])),
  // The generator: errors, then the app it writes, then its build step (packing the template) and the CLI.
  'packages/create-dcbkit-app': ['errors', 'app', 'build', 'cli'],
  // src/test-support is outside the layering (see above).
  'packages/store-postgres': ['errors', 'executor', 'schema', 'ledger', 'store', 'connect', 'cli'],
  // src/test-support is outside the layering; testing/ is the published '@dcbkit/sandbox/testing',
  // which the CLI's `check` command runs.
  'packages/sandbox': [
    'shared',
    'openapi',
    'refusals',
    'retention',
    'go-live',
    'clock',
    'config',
    'http',
    'operator',
    'webhooks',
    'consent',
    'records',
    'subscriptions',
    'payments',
    'api',
    'checkout',
    'control',
    'environment',
    'state',
    'start',
    'testing',
    'cli',
  ],
  // The shop template: the framework-free request and answer, the operations view's data, the
  // routes, then each framework's part (an overlay). Its files directly in src/ are shared ground
  // (SHARED_ROOT); the shop rules below keep the frameworks apart.
  'starters/shop': ['web', 'ops', 'routes', 'framework'],
};

/**
 * Packages whose files directly in src/ any folder may import (the template's config, session,
 * views…), rather than a top layer: for them the layers order the folders only.
 */
const SHARED_ROOT = new Set(['starters/shop']);

const SHOP = '^starters/shop/src/';

/**
 * The shop template's own rules: the shop reaches its framework's part through one seam,
 * `#framework` (start-shop.ts, and its tests' support), and an overlay never reaches another's.
 */
const shopRules = [
  {
    name: 'shop:framework-free',
    severity: 'error',
    comment:
      'starters/shop/src/ outside src/framework/ reaches a framework only through #framework ' +
      '(start-shop.ts and test-support/): the rest of the shop is the same for every framework',
    from: { path: SHOP, pathNot: `${SHOP}(framework/|start-shop\\.ts$|test-support/)` },
    to: { path: `${SHOP}framework/` },
  },
  {
    name: 'shop:overlays-apart',
    severity: 'error',
    comment: "an overlay (src/framework/<name>/) never imports another framework's overlay",
    from: { path: `${SHOP}framework/([^/]+)/` },
    to: { path: `${SHOP}framework/`, pathNot: `${SHOP}framework/$1/` },
  },
];

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TEST_FILE = '\\.test\\.ts$';
// Fixtures a test runs as a separate program (against the built package, say): tests, not layers.
const TEST_FIXTURES = '/fixtures/';
const TEST_SUPPORT = '/test-support/';

/** One rule per (package, folder): what lies above the folder is out of reach. */
function layerRules() {
  const rules = [];
  for (const [pkg, folders] of Object.entries(layers)) {
    const src = `^${escapeRegExp(pkg)}/src/`;
    const below = [];
    for (const rank of folders) {
      const peers = [rank].flat();
      for (const folder of peers)
        rules.push(layerRule(pkg, src, folder, [...below, folder], SHARED_ROOT.has(pkg)));
      below.push(...peers);
    }
  }
  return rules;
}

/**
 * What lies above `folder` of `pkg` is out of its reach: anything of src/ but the `allowed` folders
 * (and, with `sharedRoot`, the files directly in src/).
 */
function layerRule(pkg, src, folder, allowed, sharedRoot) {
  const reachable = allowed.map((name) => `${escapeRegExp(name)}/`);
  if (sharedRoot) reachable.push('[^/]+$');
  return {
    name: `layer:${pkg.replace(/^packages\//, '')}/${folder}`,
    severity: 'error',
    comment:
      `${pkg}/src/${folder} may import only ${allowed.join(', ')} ` +
      '(folders listed after it or beside it as a peer, unlisted folders and files directly in src/ are above it)',
    from: { path: `${src}${escapeRegExp(folder)}/`, pathNot: TEST_SUPPORT },
    to: { path: src, pathNot: `${src}(${reachable.join('|')})` },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module must not reach itself again through its imports (type-only imports count too).',
      from: { path: '^(packages|starters)/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'Every import must resolve to a file or a package: an unresolved import would silently ' +
        'escape the rules above.',
      from: { path: '^(packages|starters)/[^/]+/src/' },
      to: { couldNotResolve: true },
    },
    ...layerRules(),
    ...shopRules,
  ],
  options: {
    // *.test.ts take part in neither rule (check-layers cruises packages/*/src only).
    exclude: { path: [TEST_FILE, TEST_FIXTURES, '/dist/', '/node_modules/'] },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are architecture too (`import type { X } from '../later-layer/x.js'`).
    tsPreCompilationDeps: true,
    // The root tsconfig maps @dcbkit/* to the packages' src/ (`paths`), so a cross-package import
    // resolves to source like a relative one.
    tsConfig: { fileName: 'tsconfig.json' },
    // Sources import `./x.js` (NodeNext style) for the file ./x.ts: dependency-cruiser 17 falls back
    // from a missing .js to .ts by itself (its config has no extensionAlias); the
    // not-to-unresolvable rule and the counts printed by check-layers prove it resolved.
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      exportsFields: ['exports'],
    },
    moduleSystems: ['es6', 'cjs'],
    skipAnalysisNotInRules: true,
  },
};

// For scripts/check-layers.mjs (which reports folders missing from the lists); not enumerable, as
// dependency-cruiser rejects unknown keys in its configuration.
Object.defineProperty(module.exports, 'layers', { value: layers, enumerable: false });
