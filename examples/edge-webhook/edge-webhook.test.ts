/**
 * The example in workerd, as `node examples/edge-webhook/run.mjs` runs it: the workers bundled for
 * platform neutral from the built @dcbkit/core, served by workerd from npm, answering signed
 * deliveries: the verify-only receiver, and the kit's whole receiver storing what it applied.
 * workerd is a devDependency of examples/, installed with the workspace; a run takes about two seconds.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./run.mjs', import.meta.url));
const builtEntries = ['webhooks.js', 'web.js'].map((file) =>
  fileURLToPath(new URL(`../../packages/core/dist/${file}`, import.meta.url)),
);

// CI builds before it tests (`pnpm test`); locally a missing build skips, saying so.
const built = builtEntries.every((entry) => existsSync(entry));

describe.skipIf(!built && !process.env.CI)(
  `the edge-webhook example in workerd${built ? '' : ' (skipped: run `pnpm --filter @dcbkit/core build`)'}`,
  () => {
    it('verifies valid deliveries and refuses tampered, wrong-secret and stale ones; the kit applies one once', async () => {
      const { stdout } = await run(process.execPath, [script], { timeout: 170_000 }).catch(
        (error: { stdout?: string; stderr?: string; message: string }) => {
          throw new Error(`${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
        },
      );
      expect(stdout).toContain('edge-webhook: every answer as expected');
      expect(stdout).not.toContain('FAIL');
    }, 180_000);
  },
);
