import { defineConfig } from 'tsup';
import { packTemplate } from './src/build/pack-template.js';

// The CLI only: no library entry, no types. It runs on Node's builtins alone, so `npm create
// dcbkit-app` downloads this package and nothing else before it writes the app. The shop template
// it writes from lives in starters/shop; the build copies it into template/ for npm to ship.
export default defineConfig({
  entry: { cli: 'src/cli/main.ts' },
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  onSuccess: async () => {
    console.log(`create-dcbkit-app: packed the shop template (${packTemplate()} files) into template/`);
  },
});
