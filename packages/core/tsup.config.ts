import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    schemas: 'src/schemas/index.ts',
    node: 'src/node/index.ts',
    webhooks: 'src/webhooks/index.ts',
    web: 'src/web/index.ts',
    store: 'src/store/index.ts',
    // The `dcbkit` command, run by bin/dcbkit.js: no export, so nothing in package.json's exports.
    cli: 'src/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  // Shared chunks, in both formats: each subpath loads the same module instances as the root, so
  // one error class, one key cache, and a bundler keeps only what an import reaches.
  splitting: true,
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
