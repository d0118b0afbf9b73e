import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readShopConfig, ShopConfigError } from './config.js';
import { openStore } from './store.js';

const SERVICE_ENV = {
  DCB_ENV: 'sandbox',
  DCB_API_BASE_URL: 'http://127.0.0.1:4010',
  DCB_CLIENT_ID: 'svc_test_shop',
  DCB_CLIENT_SECRET: 'client-secret',
  DCB_WEBHOOK_SECRET: 'whsec_shop',
  SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
};

describe('openStore on the service', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'shop-store-'));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('makes the PGlite data folder, and its parents, on the first start', async () => {
    const dataDir = join(work, 'first', 'start', 'dcbkit');
    const shopStore = await openStore(readShopConfig({ ...SERVICE_ENV, DATA_DIR: dataDir }));
    try {
      expect(shopStore.description).toBe(`PGlite in ${dataDir}`);
      expect((await stat(dataDir)).isDirectory()).toBe(true);
    } finally {
      await shopStore.close();
    }
  }, 30_000);

  it('names a file in the way of DATA_DIR', async () => {
    const dataDir = join(work, 'a-file');
    await writeFile(dataDir, '');
    const refused = openStore(readShopConfig({ ...SERVICE_ENV, DATA_DIR: join(dataDir, 'dcbkit') }));
    await expect(refused).rejects.toThrow(/DATA_DIR: the data folder .* cannot be made \(ENOTDIR\)/);
  });

  it('names DATABASE_URL and the server, never the password, when PostgreSQL does not answer', async () => {
    const databaseUrl = 'postgres://shop:a-database-password@127.0.0.1:1/shop';
    const refused = openStore(readShopConfig({ ...SERVICE_ENV, DATABASE_URL: databaseUrl }));
    await expect(refused).rejects.toThrow(ShopConfigError);
    const { message } = (await refused.catch((error: unknown) => error)) as Error;
    expect(message).toContain('DATABASE_URL: PostgreSQL at 127.0.0.1:1/shop did not answer');
    expect(message).toContain('ECONNREFUSED');
    expect(message).not.toContain('a-database-password');
  });
});
