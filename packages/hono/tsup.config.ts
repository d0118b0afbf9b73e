import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  // Hono runs on Node, Bun, Deno and edge runtimes: the adapter imports only @dcbkit/core/web (no
  // node builtin), and its output targets the language, not a Node release.
  target: 'es2022',
});
