import type { WebhookEvent } from '@dcbkit/core';
import { createWebhookHandler } from '@dcbkit/core/web';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from './connect/postgres-store.js';
import { DATABASE_URL, type TestDatabase, testDatabase } from './test-support/database.js';
import { eventStream, offers, SECRET, signed } from './test-support/event-stream.js';
import { PG_VERSIONS } from './test-support/pg-versions.js';
import { startTcpProxy, type TcpProxy } from './test-support/tcp-proxy.js';

// PostgreSQL unreachable for a while: the app keeps running, answers 5xx (the service retries)
// and never 2xx for an event it did not commit, then recovers by itself.

for (const version of PG_VERSIONS)
  describe.skipIf(!DATABASE_URL)(`PostgreSQL unreachable for a while, on ${version.label}`, () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let appPool: pg.Pool;

    beforeAll(async () => {
      database = testDatabase('outage', {}, version.pg);
      await postgresStore({ pool: database.pool, schema: database.schema }).migrate();
      const target = new URL(DATABASE_URL as string);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const viaProxy = new URL(DATABASE_URL as string);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      // The app's pool goes through the proxy; the test checks the database directly.
      appPool = new version.pg.Pool({
        connectionString: viaProxy.toString(),
        max: 4,
        connectionTimeoutMillis: 2_000,
      });
      appPool.on('error', () => {});
    });
    afterAll(async () => {
      await appPool?.end();
      await proxy?.close();
      await database?.drop();
    });

    it('answers 5xx while it is gone, never 2xx without a commit, and recovers without a restart', async () => {
      const { store, ledger } = postgresStore({ pool: appPool, schema: database.schema });
      const quiet = { error() {}, warn() {}, info() {}, debug() {} };
      const handler = createWebhookHandler({ secrets: SECRET, store, ledger, offers, logger: quiet });
      const deliver = async (event: WebhookEvent) => {
        const { body, headers } = signed(event);
        return (await handler({ rawBody: Buffer.from(body), headers })).status;
      };
      const direct = postgresStore({ pool: database.pool, schema: database.schema });
      const [before, ...during] = eventStream(1, 70_000)
        .concat(eventStream(1, 70_001))
        .filter((e) => e.metadata);
      if (!before) throw new Error('no events');

      expect(await deliver(before)).toBe(200);

      await proxy.stop();
      const statuses = await Promise.all(during.map(deliver));
      expect(statuses.every((status) => status >= 500)).toBe(true);
      // Nothing of those deliveries reached the database: no entitlement, no claim left behind.
      for (const event of during) {
        expect(await direct.store.findByPaymentUid(event.paymentUid ?? '')).toBeUndefined();
      }
      const { rows } = await database.pool.query(`SELECT count(*)::int AS n FROM ${direct.tables.events}`);
      expect(rows).toEqual([{ n: 1 }]);

      await proxy.start();
      const retried = await Promise.all(during.map(deliver));
      expect(retried).toEqual(during.map(() => 200));
      for (const event of during) {
        expect(await direct.store.findByPaymentUid(event.paymentUid ?? '')).toBeDefined();
      }
    });

    it("going away inside the event's transaction: 5xx, nothing left behind, and the retry applied at once", async () => {
      const { store, ledger } = postgresStore({ pool: appPool, schema: database.schema });
      let cut = true;
      const quiet = { error() {}, warn() {}, info() {}, debug() {} };
      const handler = createWebhookHandler({
        secrets: SECRET,
        store,
        ledger,
        offers,
        logger: quiet,
        // Asked inside the transaction, after the claim: the database goes away mid-transaction.
        accountKeyOfEvent: (event) => {
          if (cut) {
            cut = false;
            void proxy.stop();
          }
          return typeof event.metadata?.accountKey === 'string' ? event.metadata.accountKey : undefined;
        },
      });
      const deliver = async (event: WebhookEvent) => {
        const { body, headers } = signed(event);
        return (await handler({ rawBody: Buffer.from(body), headers })).status;
      };
      const [purchase] = eventStream(1, 70_200);
      if (!purchase) throw new Error('no event');

      expect(await deliver(purchase)).toBeGreaterThanOrEqual(500);
      await proxy.start();
      const direct = postgresStore({ pool: database.pool, schema: database.schema });
      expect(await direct.store.findByPaymentUid(purchase.paymentUid ?? '')).toBeUndefined();
      // The claim went with the transaction: no lease to wait out.
      const { rows } = await database.pool.query(`SELECT count(*)::int AS n FROM ${direct.tables.events}`);
      const claimsBefore = rows[0]?.n as number;
      expect(await deliver(purchase)).toBe(200);
      expect(await deliver(purchase)).toBe(200);
      const after = await database.pool.query(`SELECT count(*)::int AS n FROM ${direct.tables.events}`);
      expect(after.rows[0]?.n).toBe(claimsBefore + 1);
      expect(await direct.store.findByPaymentUid(purchase.paymentUid ?? '')).toMatchObject({
        accountKey: purchase.metadata?.accountKey,
        lastEventName: purchase.event,
      });
    });

    it('two-phase ledger path, going away between the claim and the commit: 5xx, then 409 while the claim holds, then applied once', async () => {
      const leaseMs = 500;
      const sqlStore = postgresStore({ pool: appPool, schema: database.schema, leaseMs });
      const { ledger } = sqlStore;
      // Without applyOnce: the handler claims in the ledger, then writes, then completes.
      const { applyOnce: _applyOnce, reopen: _reopen, ...store } = sqlStore.store;
      let cutBeforeUpdate = true;
      const cuttingStore: typeof store = {
        ...store,
        async update(accountKey, productUid, change, facts) {
          if (cutBeforeUpdate) {
            cutBeforeUpdate = false;
            await proxy.stop();
          }
          return store.update(accountKey, productUid, change, facts);
        },
      };
      const quiet = { error() {}, warn() {}, info() {}, debug() {} };
      const handler = createWebhookHandler({
        secrets: SECRET,
        store: cuttingStore,
        ledger,
        offers,
        logger: quiet,
      });
      const deliver = async (event: WebhookEvent) => {
        const { body, headers } = signed(event);
        return (await handler({ rawBody: Buffer.from(body), headers })).status;
      };
      const [purchase] = eventStream(1, 70_100);
      if (!purchase) throw new Error('no event');

      // Claimed, then the database went away: the write and the release both failed.
      expect(await deliver(purchase)).toBeGreaterThanOrEqual(500);
      await proxy.start();
      const direct = postgresStore({ pool: database.pool, schema: database.schema });
      expect(await direct.store.findByPaymentUid(purchase.paymentUid ?? '')).toBeUndefined();
      // The claim it could not release holds until its lease lapses, then the retry is processed.
      expect(await deliver(purchase)).toBe(409);
      await new Promise((resolve) => setTimeout(resolve, leaseMs + 100));
      expect(await deliver(purchase)).toBe(200);
      expect(await deliver(purchase)).toBe(200);
      const entitlement = await direct.store.findByPaymentUid(purchase.paymentUid ?? '');
      expect(entitlement).toMatchObject({
        accountKey: purchase.metadata?.accountKey,
        productUid: purchase.productUid,
        lastEventName: purchase.event,
      });
    });
  });
