// Prints the minified size of typical imports of dcbkit, bundled with esbuild for Node as an app
// would bundle them (tree-shaken, ESM). Run after `pnpm build`: it bundles the built packages.
import { build } from 'esbuild';

const GOAL_VERIFY_KB = 60;

const cases = [
  {
    name: 'verifyWebhook + signWebhook (root)',
    code: "export { verifyWebhook, signWebhook } from '@dcbkit/core';",
    goalKb: GOAL_VERIFY_KB,
  },
  {
    name: 'verifyWebhook + signWebhook (/webhooks)',
    code: "export { verifyWebhook, signWebhook } from '@dcbkit/core/webhooks';",
    goalKb: GOAL_VERIFY_KB,
  },
  { name: 'isDcbError', code: "export { isDcbError } from '@dcbkit/core';" },
  { name: 'createClient', code: "export { createClient } from '@dcbkit/core';" },
  {
    name: 'createDcbKit + configFromEnv',
    code: "export { createDcbKit, configFromEnv } from '@dcbkit/core';",
  },
  { name: 'the whole root', code: "export * from '@dcbkit/core';" },
  { name: '@dcbkit/core/schemas', code: "export * from '@dcbkit/core/schemas';" },
  { name: '@dcbkit/express', code: "export * from '@dcbkit/express';" },
  { name: '@dcbkit/koa', code: "export * from '@dcbkit/koa';" },
];

const rows = [];
for (const { name, code, goalKb } of cases) {
  const result = await build({
    stdin: { contents: code, resolveDir: import.meta.dirname, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    write: false,
    metafile: true,
    external: ['express', 'koa'],
    // tsup's shared chunks carry bare imports that `sideEffects: false` lets a bundler drop: expected.
    logLevel: 'error',
  });
  const bytes = result.outputFiles[0].contents.byteLength;
  // Bytes that reached the output from zod's files (tree-shaken inputs count 0).
  const [output] = Object.values(result.metafile.outputs);
  const zodBytes = Object.entries(output.inputs)
    .filter(([input]) => input.includes('/zod/'))
    .reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0);
  const kb = bytes / 1024;
  const verdict =
    goalKb === undefined ? '' : kb < goalKb ? `PASS (< ${goalKb} KB)` : `MISS (goal < ${goalKb} KB)`;
  rows.push({
    import: name,
    'KB min': kb.toFixed(1),
    'of it zod KB': (zodBytes / 1024).toFixed(1),
    target: verdict,
  });
}
console.log('bundle sizes: esbuild --bundle --minify --format=esm --platform=node, express/koa external');
console.table(rows);
