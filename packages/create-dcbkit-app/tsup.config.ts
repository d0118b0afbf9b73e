import { defineConfig } from 'tsup';

// The CLI only: no library entry, no types. It runs on Node's builtins alone, so `npm create
// dcbkit-app` downloads this package and nothing else before it writes the app.
export default defineConfig({
  entry: { cli: 'src/cli/main.ts' },
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
});
