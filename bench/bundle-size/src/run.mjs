// Prints the minified size of typical imports of dcbkit, bundled with esbuild for Node as an app
// would bundle them (tree-shaken, ESM), against stripe's whole SDK bundled the same way. Run after
// `pnpm build`: it bundles the built packages in dist, never the sources.
import { build } from 'esbuild';

const VERIFY_GOAL_KB = 20;
/** The full kit's goal, as a multiple of stripe's SDK bundled the same way. */
const KIT_GOAL_OF_STRIPE = 1.2;

const VERIFY_FROM_ROOT = 'verifyWebhook + signWebhook (root)';
const VERIFY_FROM_WEBHOOKS = 'verifyWebhook + signWebhook (/webhooks)';
const FULL_KIT = 'full kit: createDcbKit + configFromEnv + memoryStore';
const STRIPE = "stripe's SDK (import Stripe from 'stripe')";

const cases = [
  {
    name: VERIFY_FROM_ROOT,
    code: "export { verifyWebhook, signWebhook } from '@dcbkit/core/webhooks';",
  },
  {
    name: VERIFY_FROM_WEBHOOKS,
    code: "export { verifyWebhook, signWebhook } from '@dcbkit/core/webhooks';",
  },
  { name: 'isDcbError', code: "export { isDcbError } from '@dcbkit/core';" },
  { name: 'createClient', code: "export { createClient } from '@dcbkit/core';" },
  { name: FULL_KIT, code: "export { createDcbKit, configFromEnv, memoryStore } from '@dcbkit/core';" },
  { name: 'the whole root', code: "export * from '@dcbkit/core';" },
  { name: '@dcbkit/core/schemas', code: "export * from '@dcbkit/core/schemas';" },
  { name: '@dcbkit/express', code: "export * from '@dcbkit/express';" },
  { name: '@dcbkit/koa', code: "export * from '@dcbkit/koa';" },
  { name: STRIPE, code: "export { default } from 'stripe';", reference: true },
];

/**
 * Treats dcbkit's built files as if its package.json said nothing about side effects, as a bundler
 * that ignores the `sideEffects` hint does: then only code that is pure by itself drops.
 */
const ignoreDcbkitSideEffectsHint = {
  name: 'ignore-dcbkit-side-effects-hint',
  setup(bundler) {
    bundler.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.resolving) return undefined;
      const { kind, resolveDir, importer } = args;
      const found = await bundler.resolve(args.path, {
        kind,
        resolveDir,
        importer,
        pluginData: { resolving: true },
      });
      if (found.errors.length > 0 || !isDcbkitFile(found.path)) return undefined;
      return { path: found.path, sideEffects: true };
    });
  },
};

function isDcbkitFile(path) {
  return /[/\\]packages[/\\][^/\\]+[/\\]dist[/\\]/.test(path);
}

async function bundle(code, { hint }) {
  const result = await build({
    stdin: { contents: code, resolveDir: import.meta.dirname, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    write: false,
    metafile: true,
    external: ['express', 'koa'],
    // The root tsconfig's `paths` map @dcbkit/* to the sources; an app bundles the published dist.
    tsconfigRaw: '{}',
    plugins: hint ? [] : [ignoreDcbkitSideEffectsHint],
    // tsup's shared chunks carry bare imports that `sideEffects: false` lets a bundler drop: expected.
    logLevel: 'error',
  });
  const [output] = Object.values(result.metafile.outputs);
  const inputs = Object.entries(output.inputs);
  const sources = inputs.filter(([input]) => /[/\\]packages[/\\][^/\\]+[/\\]src[/\\]/.test(input));
  if (sources.length > 0) throw new Error(`bundled dcbkit's sources, not dist: ${sources[0][0]}`);
  // Bytes that reached the output from zod's files (tree-shaken inputs count 0).
  const zodBytes = inputs
    .filter(([input]) => input.includes('/zod/'))
    .reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0);
  return { kb: result.outputFiles[0].contents.byteLength / 1024, zodKb: zodBytes / 1024 };
}

const measured = new Map();
for (const { name, code, reference } of cases) {
  const asBundled = await bundle(code, { hint: true });
  const withoutHint = reference ? undefined : await bundle(code, { hint: false });
  measured.set(name, { asBundled, withoutHint });
}

const stripeKb = measured.get(STRIPE).asBundled.kb;
const goals = new Map([
  [
    VERIFY_FROM_ROOT,
    { kb: VERIFY_GOAL_KB, text: `< ${VERIFY_GOAL_KB} KB`, met: (kb) => kb < VERIFY_GOAL_KB },
  ],
  [
    VERIFY_FROM_WEBHOOKS,
    { kb: VERIFY_GOAL_KB, text: `< ${VERIFY_GOAL_KB} KB`, met: (kb) => kb < VERIFY_GOAL_KB },
  ],
  [
    FULL_KIT,
    {
      kb: KIT_GOAL_OF_STRIPE * stripeKb,
      text: `<= ${KIT_GOAL_OF_STRIPE}x stripe's SDK`,
      met: (kb) => kb <= KIT_GOAL_OF_STRIPE * stripeKb,
    },
  ],
]);

/** The larger of the two figures: a goal holds only when an app meets it with either kind of bundler. */
const worstKb = (name) => Math.max(measured.get(name).asBundled.kb, measured.get(name).withoutHint?.kb ?? 0);
const verdict = (name) => {
  const goal = goals.get(name);
  if (goal === undefined) return '';
  return goal.met(worstKb(name)) ? `PASS (${goal.text})` : `MISS (goal ${goal.text})`;
};

const rows = cases.map(({ name }) => {
  const { asBundled, withoutHint } = measured.get(name);
  return {
    import: name,
    'KB min': asBundled.kb.toFixed(1),
    'of it zod KB': asBundled.zodKb.toFixed(1),
    'KB, hint ignored': withoutHint === undefined ? '' : withoutHint.kb.toFixed(1),
    target: verdict(name),
  };
});

console.log(
  'bundle sizes: esbuild --bundle --minify --format=esm --platform=node of the built dist, express/koa external',
);
console.log("'hint ignored': the same bundle by a bundler that does not trust dcbkit's `sideEffects: false`");
console.table(rows);

const figures = (name) => {
  const { asBundled, withoutHint } = measured.get(name);
  return `${asBundled.kb.toFixed(1)} KB (hint ignored: ${withoutHint.kb.toFixed(1)} KB)`;
};
console.log(`${VERIFY_FROM_ROOT}: ${figures(VERIFY_FROM_ROOT)}; ${verdict(VERIFY_FROM_ROOT)}`);
console.log(
  `${FULL_KIT}: ${figures(FULL_KIT)}, ${(worstKb(FULL_KIT) / stripeKb).toFixed(2)}x ${STRIPE} at ` +
    `${stripeKb.toFixed(1)} KB (goal ${goals.get(FULL_KIT).kb.toFixed(1)} KB); ${verdict(FULL_KIT)}`,
);
