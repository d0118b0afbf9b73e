import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebhookEvent } from '@dcbkit/core';
import { createWebhookHandler } from '@dcbkit/core/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteStore } from './connect/pglite-store.js';
import { eventStream, offers, SECRET, signed } from './test-support/event-stream.js';
import { accountsOf, referenceStore, stateOf } from './test-support/reference.js';

// The embedded default: one instance over a data folder, restarted.

const quiet = { error() {}, warn() {}, info() {}, debug() {} };

describe('pgliteStore over a data folder', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dcbkit-pglite-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  async function open() {
    // The store opens (and later closes) its own PGlite over the folder.
    const sqlStore = await pgliteStore({ dataDir });
    const { store, ledger } = sqlStore;
    const handler = createWebhookHandler({ secrets: SECRET, store, ledger, offers, logger: quiet });
    const deliver = async (event: WebhookEvent) => {
      const { body, headers } = signed(event);
      const answer = await handler({ rawBody: Buffer.from(body), headers });
      const { outcome, error } = JSON.parse(answer.body ?? '{}') as { outcome?: string; error?: string };
      return `${answer.status} ${outcome ?? error}`;
    };
    return { sqlStore, deliver };
  }

  it('keeps entitlements and the ledger across a restart', async () => {
    const events = eventStream(5);
    const firstRun = events.slice(0, 30);
    const secondRun = events.slice(30);

    const before = await open();
    expect(before.sqlStore.migrated?.applied).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    for (const event of firstRun) expect(await before.deliver(event)).toBe('200 applied');
    await before.sqlStore.close();

    const after = await open();
    // Migrated once, on the first run.
    expect(after.sqlStore.migrated?.applied).toEqual([]);
    // A redelivery of an event from before the restart is recognised.
    expect(await after.deliver(firstRun[0] as WebhookEvent)).toBe('200 duplicate');
    for (const event of secondRun) expect(await after.deliver(event)).toBe('200 applied');
    const accounts = accountsOf(events);
    expect(await stateOf(after.sqlStore.store, accounts)).toEqual(
      await stateOf(await referenceStore(events), accounts),
    );
    await after.sqlStore.close();
  }, 90_000);
});
