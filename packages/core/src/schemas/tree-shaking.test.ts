import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The schemas are built in pure calls and zod is imported as a namespace (see index.ts), so that
// bundlers drop what an import does not reach. These bundles prove it from the sources, without
// core's `sideEffects: false`: every module-level statement must be droppable on its own merits.
// The sizes themselves are bench/bundle-size's business.

const sources = fileURLToPath(new URL('..', import.meta.url));

/** Marks core's own files as having side effects, as a bundler that ignores the hint does. */
const ignoreSideEffectsHint: Plugin = {
  name: 'ignore-side-effects-hint',
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
      if (found.errors.length > 0 || !found.path.startsWith(sources)) return undefined;
      return { path: found.path, sideEffects: true };
    });
  },
};

/** The files that put bytes into a minified bundle of `code`, written from core's src/. */
async function bundledFiles(code: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: code, resolveDir: sources, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    write: false,
    metafile: true,
    tsconfigRaw: '{}',
    plugins: [ignoreSideEffectsHint],
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  return Object.entries(output?.inputs ?? {})
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([input]) => input);
}

describe('tree shaking', () => {
  it('leaves zod out of verifyWebhook and signWebhook, with the errors imported from the root', async () => {
    const files = await bundledFiles(
      "export { verifyWebhook, signWebhook } from './webhooks/index.ts'; export { isDcbError, WebhookVerificationError } from './index.ts';",
    );
    expect(files.some((file) => file.includes('verify-webhook.ts'))).toBe(true);
    expect(files.filter((file) => file.includes('/zod/'))).toEqual([]);
  });

  // A named `{ z }` import would bring zod's every locale (and the rest of zod) into the bundle.
  it('keeps no locale of zod but English in a full kit', async () => {
    const files = await bundledFiles(
      "export { createDcbKit, configFromEnv, memoryStore } from './index.ts';",
    );
    expect(files.some((file) => file.includes('/zod/'))).toBe(true);
    expect(files.filter((file) => /\/zod\/.*\/locales\/(?!en\.)/.test(file))).toEqual([]);
  });
});
