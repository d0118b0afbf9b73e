import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from './connect/postgres-store.js';
import { DATABASE_URL, type TestDatabase, testDatabase } from './test-support/database.js';
import { deliverUntilAcknowledged, racingDeliveries } from './test-support/deliver.js';
import { creditsBought, eventStream, seededRandom } from './test-support/event-stream.js';
import {
  bundleInstance,
  type Instance,
  type InstanceBundle,
  startInstance,
} from './test-support/instances.js';
import { PG_VERSIONS, type PgVersion } from './test-support/pg-versions.js';
import { accountsOf, paymentOwners, referenceStore, stateOf } from './test-support/reference.js';

// Two app instances, each a separate process with its own pool, behind one database: the
// multi-instance deployment store-postgres is for.

const [oldest, newest] = PG_VERSIONS as [PgVersion, PgVersion];
const KILL_PATHS: [string, Record<string, string>][] = [
  ['one transaction per event', {}],
  ['the two-phase ledger', { DCBKIT_TWO_PHASE: '1' }],
];
// The newest pg at full size; the oldest of the peer range on a fifth of the racing stream, half
// the SIGKILL one, and the one-transaction path only, so that its run costs CI seconds, not minutes.
const RUNS = [
  { version: newest, size: 1_000, killPaths: KILL_PATHS, killSize: 300, killAt: 1_000 },
  { version: oldest, size: 200, killPaths: KILL_PATHS.slice(0, 1), killSize: 150, killAt: 500 },
];

for (const { version, size, killPaths, killSize, killAt } of RUNS)
  describe.skipIf(!DATABASE_URL)(`two instances in separate processes, on ${version.label}`, () => {
    let bundle: InstanceBundle;
    const databases: TestDatabase[] = [];
    const instances: Instance[] = [];

    beforeAll(async () => {
      bundle = await bundleInstance();
    }, 60_000);
    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.kill()));
      await Promise.all(databases.map((database) => database.drop()));
      await bundle?.remove();
    });

    async function migratedDatabase(label: string): Promise<TestDatabase> {
      const database = testDatabase(label, {}, version.pg);
      databases.push(database);
      await postgresStore({ pool: database.pool, schema: database.schema }).migrate();
      return database;
    }

    async function startTwo(database: TestDatabase, env: Record<string, string> = {}) {
      const started = await Promise.all(
        [0, 1].map(() =>
          startInstance(bundle, {
            DATABASE_URL: DATABASE_URL as string,
            DCBKIT_SCHEMA: database.schema,
            DCBKIT_PG: version.module,
            ...env,
          }),
        ),
      );
      instances.push(...started);
      return started as [Instance, Instance];
    }

    it(`apply ${size * 10} events, delivered with racing and late duplicates in shuffled order, exactly once`, async () => {
      const events = eventStream(size);
      expect(events).toHaveLength(size * 10);
      const database = await migratedDatabase('two_instances');
      const pair = await startTwo(database);
      const deliveries = racingDeliveries(events.length, pair, seededRandom(1), {
        racingShare: 0.2,
        lateShare: 0.1,
      });

      const { appliedCount, answers } = await deliverUntilAcknowledged({
        events,
        deliveries,
        concurrency: 16,
      });

      // Processed once: of all the deliveries of an event, to either instance, exactly one applied it.
      expect(appliedCount.filter((count) => count !== 1)).toEqual([]);
      // The deliveries really raced: copies met completed on the other instance (a copy's claim
      // waits on the first copy's transaction, and answers duplicate once it committed), events
      // overtook the payment that creates their entitlement.
      expect(answers.filter((answer) => answer.outcome === 'duplicate').length).toBeGreaterThan(size);
      expect(answers.some((answer) => answer.status === 503)).toBe(true);
      expect(answers.filter((answer) => answer.status === 500 || answer.status === 0)).toEqual([]);

      // The state one instance fed every event once, in order, reaches: entitlement by entitlement.
      const accounts = accountsOf(events);
      const inOrder = await referenceStore(events);
      const reference = await stateOf(inOrder, accounts);
      const { store, tables } = postgresStore({ pool: database.pool, schema: database.schema });
      const stored = await stateOf(store, accounts);
      expect(stored).toEqual(reference);
      // Each consumable counted once, and its order recorded once.
      const credits = creditsBought(events);
      for (const [i, account] of accounts.entries()) {
        const units = stored[i]?.find(
          (entitlement) => entitlement.productUid === 'prod_credits',
        )?.unitsBought;
        expect(units).toBe(credits.get(account) ?? -1);
      }
      const { rows: unitRows } = await database.pool.query<{ account_key: string; units: number }>(
        `SELECT account_key, count(*)::int AS units FROM ${tables.entitlementUnits} GROUP BY account_key`,
      );
      expect(new Map(unitRows.map((row) => [row.account_key, row.units]))).toEqual(credits);
      // Every payment recorded, for the entitlement in-order delivery records it for.
      const owners = await paymentOwners(store, events);
      expect(owners.filter(([, owner]) => owner === null)).toEqual([]);
      expect(owners).toEqual(await paymentOwners(inOrder, events));
      // About 30 s on a loaded two-core machine; the margin is for CI running other files beside it.
    }, 180_000);

    it.each(killPaths)(
      'lose nothing when one is killed (SIGKILL) mid-stream, on %s: the retries complete every event on the survivor',
      async (path, env) => {
        const events = eventStream(killSize, 50_000);
        const database = await migratedDatabase(
          path === 'the two-phase ledger' ? 'sigkill_two_phase' : 'sigkill',
        );
        // A short lease: the claims the killed instance held lapse within the test.
        const [doomed, survivor] = await startTwo(database, { DCBKIT_LEASE_MS: '1500', ...env });
        const deliveries = racingDeliveries(events.length, [doomed, survivor], seededRandom(2), {
          racingShare: 0.1,
          lateShare: 0.1,
        });
        let answered = 0;
        let killing: Promise<void> | undefined;

        const result = await deliverUntilAcknowledged({
          events,
          deliveries,
          // The load balancer sends retries to the instance still up.
          retryTo: () => survivor,
          concurrency: 16,
          onAnswer() {
            if (++answered === killAt) killing = doomed.kill('SIGKILL');
          },
        });
        await killing;
        expect(doomed.child.signalCode).toBe('SIGKILL');
        // The kill cut deliveries off (no answer); on the two-phase path, claims it held made the
        // survivor answer 409 for a while, and on one transaction the database rolled them back.
        expect(result.answers.some((answer) => answer.outcome === 'network')).toBe(true);
        expect(result.rounds).toBeGreaterThan(1);

        const accounts = accountsOf(events);
        const inOrder = await referenceStore(events);
        const reference = await stateOf(inOrder, accounts);
        const { store } = postgresStore({ pool: database.pool, schema: database.schema });
        expect(await stateOf(store, accounts)).toEqual(reference);
        expect(await paymentOwners(store, events)).toEqual(await paymentOwners(inOrder, events));
      },
      120_000,
    );
  });
