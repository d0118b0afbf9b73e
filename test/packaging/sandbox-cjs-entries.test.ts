/**
 * A CommonJS test suite that starts the sandbox from `@dcbkit/sandbox/testing` and checks an error
 * against a class from `@dcbkit/sandbox` needs both entry points to share one module graph: as two
 * bundles, each had its own copy of every class and function. This runs on the built packages
 * (`pnpm test` builds first), through `require`, the way such a suite loads them.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../../packages/sandbox/dist/', import.meta.url));
const require = createRequire(import.meta.url);

type Root = typeof import('@dcbkit/sandbox');
type Testing = typeof import('@dcbkit/sandbox/testing');

describe.runIf(existsSync(`${dist}index.cjs`) && existsSync(`${dist}testing.cjs`))(
  '@dcbkit/sandbox and @dcbkit/sandbox/testing in CommonJS',
  () => {
    it('load the same functions and classes', () => {
      const root = require(`${dist}index.cjs`) as Root;
      const testing = require(`${dist}testing.cjs`) as Testing;
      expect(testing.startSandbox).toBe(root.startSandbox);
      expect(testing.createClock).toBe(root.createClock);
      expect(testing.SandboxError).toBe(root.SandboxError);
    });

    it("an error thrown through one entry is an instance of the other's classes", async () => {
      const root = require(`${dist}index.cjs`) as Root;
      const testing = require(`${dist}testing.cjs`) as Testing;
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const { port } = taken.address() as { port: number };
      try {
        const failure = await testing.startSandbox({ port, host: '127.0.0.1' }).then(
          async (sandbox) => {
            await sandbox.close();
            return undefined;
          },
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(root.SandboxPortInUseError);
        expect(failure).toBeInstanceOf(root.SandboxError);
        expect(Object.getPrototypeOf(failure)).toBe(root.SandboxPortInUseError.prototype);
      } finally {
        taken.close();
      }
    });
  },
);
