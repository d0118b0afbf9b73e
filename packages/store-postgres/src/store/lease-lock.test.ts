import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlStore } from '../connect/create-sql-store.js';
import { pgliteStore } from '../connect/pglite-store.js';
import { uniqueSchema } from '../test-support/database.js';
import { openPglite } from '../test-support/pglite.js';

describe('tryLock under a lease', () => {
  let db: PGlite;
  let sqlStore: SqlStore;
  beforeAll(async () => {
    db = await openPglite();
    sqlStore = await pgliteStore({ db, schema: uniqueSchema('locks') });
  }, 60_000);
  afterAll(() => db?.close());

  /** What a holder whose process died leaves: its lease runs out. */
  const lapse = (name: string) =>
    sqlStore.executor.query(
      `UPDATE ${sqlStore.tables.locks} SET expires_at = now() - interval '1 second' WHERE name = $1`,
      [name],
    );

  it('is taken over once the holder lets its lease lapse, and the late release frees nothing', async () => {
    const { store } = sqlStore;
    const first = await store.tryLock('dcbkit:test');
    expect(first).toBeTypeOf('function');
    expect(await store.tryLock('dcbkit:test')).toBeUndefined();

    await lapse('dcbkit:test');
    const second = await store.tryLock('dcbkit:test');
    expect(second).toBeTypeOf('function');
    // The first holder wakes up and releases: the lock stays the second's.
    await first?.();
    expect(await store.tryLock('dcbkit:test')).toBeUndefined();
    await second?.();
    const third = await store.tryLock('dcbkit:test');
    expect(third).toBeTypeOf('function');
    await third?.();
  });
});
