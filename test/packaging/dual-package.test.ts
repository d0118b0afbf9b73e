/**
 * An ESM app whose dependency loads dcbkit through `require` holds two copies of core: the ESM
 * build and the CommonJS build. Errors made by one must be recognised by the other. This runs on
 * the built packages (`pnpm test` builds first), the way an app consumes them.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const distEsm = fileURLToPath(new URL('../../packages/core/dist/index.js', import.meta.url));
const distCjs = fileURLToPath(new URL('../../packages/core/dist/index.cjs', import.meta.url));
const require = createRequire(import.meta.url);

type Core = typeof import('@dcbkit/core');

describe.runIf(existsSync(distEsm) && existsSync(distCjs))(
  'two copies of @dcbkit/core (ESM and CommonJS)',
  () => {
    it('are different module instances with different classes', async () => {
      const esm = (await import(distEsm)) as Core;
      const cjs = require(distCjs) as Core;
      expect(esm.DcbError).not.toBe(cjs.DcbError);
    });

    it('recognise each other’s errors: isDcbError, instanceof and the code', async () => {
      const esm = (await import(distEsm)) as Core;
      const cjs = require(distCjs) as Core;
      const fromCjs = new cjs.DcbApiError({
        code: 'CAT-102',
        httpStatus: 404,
        message: 'offer not found',
        method: 'POST',
        path: '/v1/payments',
      });
      expect(esm.isDcbError(fromCjs, 'CAT-102')).toBe(true);
      expect(esm.isDcbApiError(fromCjs, 'CAT-102')).toBe(true);
      expect(fromCjs instanceof esm.DcbApiError).toBe(true);
      expect(fromCjs instanceof esm.DcbError).toBe(true);
      expect(fromCjs instanceof esm.WebhookVerificationError).toBe(false);

      const fromEsm = new esm.WebhookVerificationError('signature_mismatch', 'no match');
      expect(cjs.isDcbError(fromEsm, 'signature_mismatch')).toBe(true);
      expect(fromEsm instanceof cjs.WebhookVerificationError).toBe(true);
      expect(fromEsm instanceof cjs.DcbApiError).toBe(false);
      expect(cjs.isDcbError(new Error('plain'))).toBe(false);
    });

    it('a subpath loads the same module instances as the root, in each format', async () => {
      const esmRoot = (await import(distEsm)) as Core;
      const esmWebhooks = (await import(distEsm.replace('index.js', 'webhooks.js'))) as Core;
      expect(esmWebhooks.WebhookVerificationError).toBe(esmRoot.WebhookVerificationError);
      const esmWeb = (await import(distEsm.replace('index.js', 'web.js'))) as Core;
      expect(esmWeb.memoryLedger).toBe(esmRoot.memoryLedger);
      expect(esmWeb.memoryStore).toBe(esmRoot.memoryStore);
      const cjsRoot = require(distCjs) as Core;
      const cjsWebhooks = require(distCjs.replace('index.cjs', 'webhooks.cjs')) as Core;
      expect(cjsWebhooks.DcbError).toBe(cjsRoot.DcbError);
      const cjsWeb = require(distCjs.replace('index.cjs', 'web.cjs')) as Core;
      expect(cjsWeb.DcbError).toBe(cjsRoot.DcbError);
    });
  },
);
