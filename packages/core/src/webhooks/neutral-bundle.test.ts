/**
 * `@dcbkit/core/webhooks` as an edge runtime's bundler sees it: the built entry (the `import`
 * file of package.json's exports), bundled by esbuild for `platform: 'neutral'`, where no node
 * builtin resolves, then run in a realm that has Web Crypto, TextEncoder and TextDecoder and
 * nothing of node (no process, no Buffer, no require). The vectors are verify-webhook.test.ts's.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { isDcbError } from '../errors/dcb-error.js';
import {
  bundleEntry,
  CRYPTO_GLOBALS,
  NEUTRAL,
  edgeRealm as realmOf,
  whyNotBuilt,
} from '../test-support/neutral-bundle.js';
import {
  body,
  deliveryWith,
  event,
  NOW,
  REFUSALS,
  SECRET,
  signed,
  T,
} from './test-support/verification-vectors.js';
import type { VerifyWebhookOptions } from './verify-checks.js';

type Webhooks = typeof import('./index.js');

const notBuilt = await whyNotBuilt('./webhooks');

/** A realm with Web Crypto and the encoders, and nothing of node. */
function edgeRealm(code: string): { webhooks: Webhooks; evaluate: (source: string) => unknown } {
  const { exports, evaluate } = realmOf<Webhooks>(code, 'dcbkitWebhooks', CRYPTO_GLOBALS);
  return { webhooks: exports, evaluate };
}

// CI builds before it tests (`pnpm test`); locally a missing or stale build skips, saying so.
describe.skipIf(notBuilt !== undefined && !process.env.CI)(
  `@dcbkit/core/webhooks bundled for platform neutral${notBuilt ? ` (skipped: ${notBuilt}; run \`pnpm --filter @dcbkit/core build\`)` : ''}`,
  () => {
    it('resolves no node builtin: esbuild neutral would fail on one, as it does here on node:crypto', async () => {
      expect(notBuilt, 'build @dcbkit/core before this test').toBeUndefined();
      const { code, inputs } = await bundleEntry('./webhooks', 'esm');
      expect(inputs.every((input) => input.includes('dist/'))).toBe(true);
      expect(code).not.toMatch(/\brequire\(|from\s*["'](node:)?crypto["']/);
      await expect(
        build({
          ...NEUTRAL,
          stdin: { contents: "import { createHmac } from 'node:crypto'; createHmac('sha256', 'k');" },
        }),
      ).rejects.toThrow(/Could not resolve "node:crypto"/);
    });

    it('verifies in a realm without node: every vector as on Node, bodies from either realm', async () => {
      const { webhooks, evaluate } = edgeRealm(
        (await bundleEntry('./webhooks', 'iife', 'dcbkitWebhooks')).code,
      );
      expect(evaluate('[typeof process, typeof Buffer, typeof require].join()')).toBe(
        'undefined,undefined,undefined',
      );
      // Options made in the realm, as an edge function makes them (a Date of another realm is not a Date).
      const inRealm = (options: VerifyWebhookOptions) => ({
        ...options,
        now: evaluate(`new Date(${NOW.getTime()})`) as Date,
      });
      const outcome = async (options: VerifyWebhookOptions) => {
        try {
          return { accepted: await webhooks.verifyWebhookAsync(inRealm(options)) };
        } catch (error) {
          expect(isDcbError(error), String(error)).toBe(true);
          return { code: (error as { code: string }).code, message: (error as Error).message };
        }
      };

      expect(JSON.parse(JSON.stringify(await outcome(deliveryWith())))).toEqual({ accepted: event });
      for (const [label, change, code] of REFUSALS) {
        expect((await outcome(deliveryWith(change))).code, label).toBe(code);
      }
      const realmBytes = evaluate(`new Uint8Array(${JSON.stringify([...Buffer.from(body)])})`) as Uint8Array;
      const nodeBytes = new Uint8Array(Buffer.from(body));
      for (const rawBody of [realmBytes, nodeBytes]) {
        expect(JSON.parse(JSON.stringify(await outcome(deliveryWith({ rawBody }))))).toEqual({
          accepted: event,
        });
      }
    });

    it('signs as node does, and points the synchronous calls to the async ones', async () => {
      const { webhooks } = edgeRealm((await bundleEntry('./webhooks', 'iife', 'dcbkitWebhooks')).code);
      expect(await webhooks.signWebhookAsync({ payload: body, secret: SECRET, timestamp: T })).toBe(signed());
      expect(() => webhooks.verifyWebhook(deliveryWith())).toThrow(
        expect.objectContaining({ code: 'crypto_unavailable', details: { use: 'verifyWebhookAsync' } }),
      );
      expect(() => webhooks.signWebhook({ payload: body, secret: SECRET })).toThrow(
        expect.objectContaining({ code: 'crypto_unavailable', details: { use: 'signWebhookAsync' } }),
      );
    });
  },
);
