import type { WebhookEvent } from '@dcbkit/core';
import type { ClaimToken, EventLedger } from '@dcbkit/core/store';
import { createWebhookHandler } from '@dcbkit/core/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from './connect/postgres-store.js';
import { DATABASE_URL, type TestDatabase, testDatabase } from './test-support/database.js';
import { eventStream, offers, SECRET, signed } from './test-support/event-stream.js';
import { PG_VERSIONS } from './test-support/pg-versions.js';
import { referenceStore } from './test-support/reference.js';

// The entitlement commit and the ledger's completion are two commits. An instance that dies
// between them leaves the event claimed but not completed: the claim lapses, a retry applies the
// event again, and core's rules make that second application change nothing (units are a set
// keyed by orderId, statuses ordered by occurredAt). Neither a double effect nor a loss.

const LEASE_MS = 400;
const never = new Promise<never>(() => {});
const quiet = { error() {}, warn() {}, info() {}, debug() {} };

/** A ledger that "dies" at the first complete: that call and every later one never return. */
function dyingAtComplete(ledger: EventLedger): EventLedger & { died: boolean } {
  const state = {
    died: false,
    claim: (key: string) => (state.died ? never : ledger.claim(key)),
    complete(_key: string, _token: ClaimToken) {
      state.died = true;
      return never;
    },
    release: (key: string, token: ClaimToken) => (state.died ? never : ledger.release(key, token)),
  };
  return state;
}

for (const version of PG_VERSIONS)
  describe.skipIf(!DATABASE_URL)(
    `an instance dying between the store commit and the ledger completion, on ${version.label}`,
    () => {
      let database: TestDatabase;
      beforeAll(async () => {
        database = testDatabase('crash_complete', {}, version.pg);
        await postgresStore({ pool: database.pool, schema: database.schema }).migrate();
      });
      afterAll(() => database?.drop());

      function instance(ledgerWrap: (ledger: EventLedger) => EventLedger = (ledger) => ledger) {
        const { store, ledger } = postgresStore({
          pool: database.pool,
          schema: database.schema,
          leaseMs: LEASE_MS,
        });
        const handler = createWebhookHandler({
          secrets: SECRET,
          store,
          ledger: ledgerWrap(ledger),
          offers,
          logger: quiet,
        });
        return async (event: WebhookEvent) => {
          const { body, headers } = signed(event);
          return (await handler({ rawBody: Buffer.from(body), headers })).status;
        };
      }

      it.each([
        ['a credit purchase (a consumable unit)', 1],
        ['a renewal (a new period)', 4],
        ['a cancellation (a status change)', 5],
      ])('%s is neither counted twice nor lost', async (_label, crashAt) => {
        const events = eventStream(1, 80_000 + crashAt);
        const survivor = instance();
        // Everything before the crashing event, delivered normally.
        for (const event of events.slice(0, crashAt)) expect(await survivor(event)).toBe(200);

        const crashing = events[crashAt] as WebhookEvent;
        const doomedLedger = { current: undefined as (EventLedger & { died: boolean }) | undefined };
        const doomed = instance((ledger) => {
          doomedLedger.current = dyingAtComplete(ledger);
          return doomedLedger.current;
        });
        void doomed(crashing); // never answers: the instance is dead
        for (let i = 0; i < 100 && !doomedLedger.current?.died; i++)
          await new Promise((r) => setTimeout(r, 20));
        expect(doomedLedger.current?.died).toBe(true);

        // The service retries on another instance: in progress until the dead claim's lease lapses.
        expect(await survivor(crashing)).toBe(409);
        await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 100));
        expect(await survivor(crashing)).toBe(200);
        expect(await survivor(crashing)).toBe(200);
        for (const event of events.slice(crashAt + 1)) expect(await survivor(event)).toBe(200);

        // Exactly the state of one instance fed every event once, in order.
        const account = String(events[0]?.metadata?.accountKey);
        const { store } = postgresStore({ pool: database.pool, schema: database.schema });
        expect(await store.listByAccount(account)).toEqual(
          await (await referenceStore(events)).listByAccount(account),
        );
      });
    },
  );
