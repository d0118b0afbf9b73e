import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { readShopConfig } from '../config.js';
import { openStore } from '../store.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite data folder the shop has opened and migrated once: copy it, never open it. */
    migratedDataFolder: string;
  }
}

/**
 * vitest's globalSetup: PGlite makes a new data folder (initdb) in several seconds, so the run
 * makes one, as the shop's first start on the service does, and the tests that start the shop on
 * the service copy it (copyOfMigratedDataFolder). store.test.ts still starts on a new folder.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const work = await mkdtemp(join(tmpdir(), 'shop-migrated-'));
  const dataDir = join(work, 'data');
  const store = await openStore(
    readShopConfig({
      DCB_ENV: 'sandbox',
      DCB_API_BASE_URL: 'http://127.0.0.1:4010',
      DCB_CLIENT_ID: 'svc_test_shop',
      DCB_CLIENT_SECRET: 'client-secret',
      DCB_WEBHOOK_SECRET: 'whsec_shop',
      SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
      DATA_DIR: dataDir,
    }),
  );
  await store.close();
  project.provide('migratedDataFolder', dataDir);
  return () => rm(work, { recursive: true, force: true });
}
