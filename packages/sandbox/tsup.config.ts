import { copyFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts', cli: 'src/cli/main.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' } },
  // Shared chunks in both formats (tsup splits only ESM by default): without them each CommonJS
  // entry is a whole bundle of its own, and `startSandbox` or `SandboxError` from
  // `@dcbkit/sandbox/testing` is another copy than the root's, so `instanceof` fails across them.
  splitting: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The default config is bundled into the code (so it loads the same from ESM and CJS) and also
  // published as @dcbkit/sandbox/default-config.json for starters that display its offers; the
  // config's JSON Schema (kept equal to the zod schema by config-json-schema.test.ts) is published
  // as @dcbkit/sandbox/config-schema.json for editors, and the service's OpenAPI document (bundled
  // too, for GET /openapi.json) as @dcbkit/sandbox/openapi.json. package.json's typesVersions points
  // TypeScript's node10 resolution, which ignores `exports`, at both.
  async onSuccess() {
    await copyFile('src/config/default-config.json', 'dist/default-config.json');
    await copyFile('src/config/config-schema.json', 'dist/config-schema.json');
    await copyFile('src/openapi/openapi.json', 'dist/openapi.json');
  },
});
