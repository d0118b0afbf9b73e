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
  // Published JSON beside the code: the default config (bundled too, so it loads the same from ESM
  // and CJS) as @dcbkit/sandbox/default-config.json, for starters that display its offers; the
  // config's JSON Schema (kept equal to the zod schema by config-json-schema.test.ts) as
  // config-schema.json, for editors; the service's OpenAPI document (bundled too, for GET
  // /openapi.json) as openapi.json; every event kind signed, for a partner's unit tests in any
  // language, as signed-events.json. package.json's typesVersions points TypeScript's node10
  // resolution, which ignores `exports`, at each.
  async onSuccess() {
    await copyFile('src/config/default-config.json', 'dist/default-config.json');
    await copyFile('src/config/config-schema.json', 'dist/config-schema.json');
    await copyFile('src/openapi/openapi.json', 'dist/openapi.json');
    await copyFile('src/fixtures/signed-events.json', 'dist/signed-events.json');
  },
});
