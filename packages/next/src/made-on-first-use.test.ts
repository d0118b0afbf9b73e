import { describe, expect, it } from 'vitest';
import { madeOnFirstUse } from './made-on-first-use.js';

describe('madeOnFirstUse', () => {
  it('makes nothing until the first call, then once for every call, concurrent ones included', async () => {
    let made = 0;
    const kit = madeOnFirstUse(async () => {
      made++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { id: made };
    });
    expect(made).toBe(0);
    const [first, second] = await Promise.all([kit(), kit()]);
    expect(first).toBe(second);
    expect(await kit()).toBe(first);
    expect(made).toBe(1);
  });

  it('keeps no failure: the call after one tries again', async () => {
    let attempts = 0;
    const kit = madeOnFirstUse(() => {
      attempts++;
      if (attempts === 1) throw new Error('DCB_CLIENT_ID is not set');
      return 'kit';
    });
    await expect(kit()).rejects.toThrow('DCB_CLIENT_ID is not set');
    expect(await kit()).toBe('kit');
    expect(await kit()).toBe('kit');
    expect(attempts).toBe(2);
  });
});
