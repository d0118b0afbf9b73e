import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteStore } from './connect/pglite-store.js';
import { eventStream, signed } from './test-support/event-stream.js';
import {
  bundleInstance,
  type Instance,
  type InstanceBundle,
  startInstance,
} from './test-support/instances.js';
import { accountsOf, referenceStore, stateOf } from './test-support/reference.js';

// PGlite is one process per data folder: two writers lose each other's acknowledged writes. The
// store locks the folder; a second opener is refused, a dead holder's lock is taken over.

describe('a PGlite data folder, one process at a time', () => {
  let bundle: InstanceBundle;
  let dataDir: string;
  const instances: Instance[] = [];

  beforeAll(async () => {
    bundle = await bundleInstance();
    dataDir = await mkdtemp(join(tmpdir(), 'dcbkit-pglite-lock-'));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill('SIGKILL')));
    await bundle?.remove();
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    const instance = await startInstance(bundle, { DCBKIT_PGLITE_DIR: dataDir });
    instances.push(instance);
    return instance;
  };

  it('refuses a second process, loses nothing acknowledged, and takes over after a crash', async () => {
    const events = eventStream(6);
    const [firstHalf, secondHalf] = [events.slice(0, 30), events.slice(30)];

    const first = await start();
    for (const event of firstHalf) expect((await first.send(signed(event))).status).toBe(200);

    // A second process on the same folder: refused, naming the folder and the holder.
    const refused = await startInstance(bundle, { DCBKIT_PGLITE_DIR: dataDir }).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      code: 'data_folder_in_use',
      details: { folder: dataDir, holder: { pid: first.child.pid, host: hostname() } },
    });
    // In this process too, while the other holds it.
    await expect(pgliteStore({ dataDir })).rejects.toMatchObject({ code: 'data_folder_in_use' });

    // Stopped cleanly, it lets the folder go; the next process sees every acknowledged write.
    await first.kill('SIGTERM');
    const second = await start();
    for (const event of firstHalf.slice(0, 5)) {
      expect(await second.send(signed(event))).toMatchObject({ status: 200, outcome: 'duplicate' });
    }
    for (const event of secondHalf) expect((await second.send(signed(event))).status).toBe(200);

    // Killed (nothing runs after SIGKILL): its lock file stays, and the next opener takes it over.
    await second.kill('SIGKILL');
    const third = await start();
    const [replayed] = secondHalf;
    if (replayed === undefined) throw new Error('the stream has a second half');
    expect((await third.send(signed(replayed))).status).toBe(200);
    await third.kill('SIGTERM');

    const reopened = await pgliteStore({ dataDir });
    try {
      const accounts = accountsOf(events);
      expect(await stateOf(reopened.store, accounts)).toEqual(
        await stateOf(await referenceStore(events), accounts),
      );
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
