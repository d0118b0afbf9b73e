import { afterEach, describe, expect, it, vi } from 'vitest';
import { isDcbError } from '../errors/dcb-error.js';
import { body, deliveryWith, event, NOW, SECRET, signed, T } from './test-support/verification-vectors.js';

// A runtime without node's crypto (an edge runtime), played on Node: process.getBuiltinModule
// finds nothing, and the webhooks entry is loaded afresh so that it looks again.
// neutral-bundle.test.ts does the same for real: the built entry bundled for platform neutral, in
// a realm that has no process at all.
async function webhooksWithoutNodeCrypto(
  getBuiltinModule: () => never = () => undefined as never,
): Promise<typeof import('./index.js')> {
  vi.resetModules();
  vi.spyOn(process, 'getBuiltinModule').mockImplementation(getBuiltinModule);
  return import('./index.js');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('where the runtime has no node:crypto', () => {
  it('verifyWebhook throws crypto_unavailable, naming verifyWebhookAsync, before any check', async () => {
    const { verifyWebhook } = await webhooksWithoutNodeCrypto();
    // A request without a header too: the runtime fails every request alike, not only the signed ones.
    for (const options of [deliveryWith(), deliveryWith({ signature: undefined })]) {
      let error: unknown;
      try {
        verifyWebhook(options);
      } catch (thrown) {
        error = thrown;
      }
      expect(isDcbError(error, 'crypto_unavailable')).toBe(true);
      expect((error as Error).message).toMatch(/verifyWebhook is synchronous and needs node:crypto/);
      expect((error as Error).message).toMatch(/await verifyWebhookAsync/);
      expect(error).toEqual(expect.objectContaining({ details: { use: 'verifyWebhookAsync' } }));
    }
  });

  it('signWebhook throws crypto_unavailable, naming signWebhookAsync', async () => {
    const { signWebhook } = await webhooksWithoutNodeCrypto();
    expect(() => signWebhook({ payload: body, secret: SECRET })).toThrow(
      expect.objectContaining({ code: 'crypto_unavailable', details: { use: 'signWebhookAsync' } }),
    );
  });

  it('verifyWebhookAsync verifies on Web Crypto, and refuses with the codes of verifyWebhook', async () => {
    const { verifyWebhookAsync } = await webhooksWithoutNodeCrypto();
    expect(await verifyWebhookAsync(deliveryWith())).toEqual(event);
    await expect(
      verifyWebhookAsync(deliveryWith({ signature: signed(body, 'whsec_other') })),
    ).rejects.toEqual(expect.objectContaining({ code: 'signature_mismatch' }));
    await expect(
      verifyWebhookAsync(deliveryWith({ signature: signed(body, SECRET, T - 301) })),
    ).rejects.toEqual(expect.objectContaining({ code: 'timestamp_out_of_tolerance' }));
  });

  it('takes a getBuiltinModule that throws for none (the Next.js Edge sandbox polyfills it so)', async () => {
    const { verifyWebhook, verifyWebhookAsync } = await webhooksWithoutNodeCrypto(() => {
      throw new Error(
        'A Node.js API is used (process.getBuiltinModule) which is not supported in the Edge Runtime.',
      );
    });
    expect(() => verifyWebhook(deliveryWith())).toThrow(
      expect.objectContaining({ code: 'crypto_unavailable' }),
    );
    expect(await verifyWebhookAsync(deliveryWith())).toEqual(event);
  });

  it('signWebhookAsync signs on Web Crypto exactly as node does', async () => {
    const { signWebhookAsync } = await webhooksWithoutNodeCrypto();
    expect(await signWebhookAsync({ payload: body, secret: SECRET, timestamp: NOW })).toBe(signed());
  });
});
