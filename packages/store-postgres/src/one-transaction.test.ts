import type { WebhookEvent } from '@dcbkit/core';
import { createWebhookHandler } from '@dcbkit/core/web';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStore } from './connect/create-sql-store.js';
import { fromPg } from './executor/from-pg.js';
import { fromPglite } from './executor/from-pglite.js';
import type { SqlExecutor } from './executor/sql-executor.js';
import { DATABASE_URL, type TestDatabase, testDatabase, uniqueSchema } from './test-support/database.js';
import { eventStream, offers, SECRET, signed } from './test-support/event-stream.js';
import { PG_VERSIONS } from './test-support/pg-versions.js';
import { openPglite } from './test-support/pglite.js';

// What a delivery costs the database, counted where the store meets the driver: a statement run
// on its own is a transaction of its own; a transaction is one, whatever it runs.

interface Count {
  transactions: number;
  statements: number;
}

function counting(executor: SqlExecutor) {
  const count: Count = { transactions: 0, statements: 0 };
  const counted: SqlExecutor = {
    query(text, params) {
      count.transactions++;
      count.statements++;
      return executor.query(text, params);
    },
    transaction(work) {
      count.transactions++;
      return executor.transaction((tx) =>
        work({
          query(text, params) {
            count.statements++;
            return tx.query(text, params);
          },
          commitWith(text, params) {
            count.statements++;
            return tx.commitWith ? tx.commitWith(text, params) : tx.query(text, params);
          },
        }),
      );
    },
  };
  return { counted, count };
}

/** Round trips to PostgreSQL: each ends with one ReadyForQuery, counted on every connection of the pool. */
function roundTripsOf(pool: pg.Pool) {
  const trips = { count: 0 };
  pool.on('connect', (client) => {
    (client as unknown as { connection: NodeJS.EventEmitter }).connection.on('readyForQuery', () => {
      trips.count++;
    });
  });
  return trips;
}

async function costs(executor: SqlExecutor, schema: string, trips?: { count: number }) {
  const { counted, count } = counting(executor);
  const sqlStore = createSqlStore(counted, { schema });
  await sqlStore.migrate();
  const handler = createWebhookHandler({
    secrets: SECRET,
    store: sqlStore.store,
    ledger: sqlStore.ledger,
    offers,
    logger: { warn() {}, error() {} },
  });
  const deliver = async (event: WebhookEvent) => {
    const { body, headers } = signed(event);
    count.transactions = 0;
    count.statements = 0;
    if (trips) trips.count = 0;
    const answer = await handler({ rawBody: Buffer.from(body), headers });
    return { outcome: JSON.parse(answer.body ?? '{}').outcome, ...count, roundTrips: trips?.count };
  };
  return { deliver };
}

// A subscription's purchase (history, facts, the line checked, the pending payment ended) and the
// rest of its account's story.
const story = eventStream(1, 91_000);

async function expectOneEach(deliver: Awaited<ReturnType<typeof costs>>['deliver']) {
  let applied = 0;
  for (const event of story) {
    const fresh = await deliver(event);
    // An event that overtook its payment, in this shuffled story, is deferred (rolled back).
    if (fresh.outcome !== 'applied') continue;
    applied++;
    expect({ event: event.event, transactions: fresh.transactions }).toEqual({
      event: event.event,
      transactions: 1,
    });
    // The claim, the read, the write, the line and the lifecycle record under its subscriber's lock
    // (a subscription's), the checkout the payment ends (for the checkout funnel), then one
    // statement for the key's target, the history entry, the pending payment's end, the
    // subscriber's derived columns and the business facts (docs/stores.md).
    if (event.event === 'payment.succeeded') {
      const subscription = event.subscriptionUid === undefined ? 0 : 2;
      expect({ paymentUid: event.paymentUid, statements: fresh.statements }).toEqual({
        paymentUid: event.paymentUid,
        statements: 5 + subscription,
      });
      // On pg, BEGIN travels with the claim and COMMIT with the last statement: a round trip a
      // statement (once the claim is prepared on the connection, from the first event on).
      if (fresh.roundTrips !== undefined && applied > 1)
        expect({ paymentUid: event.paymentUid, roundTrips: fresh.roundTrips }).toEqual({
          paymentUid: event.paymentUid,
          roundTrips: 5 + subscription,
        });
    }
    const copy = await deliver(event);
    expect({ event: event.event, ...copy }).toEqual({
      event: event.event,
      outcome: 'duplicate',
      transactions: 1,
      statements: 1,
      // BEGIN with the claim, then COMMIT.
      roundTrips: fresh.roundTrips === undefined ? undefined : 2,
    });
  }
  expect(applied).toBeGreaterThanOrEqual(5);
}

for (const version of PG_VERSIONS)
  describe.skipIf(!DATABASE_URL)(`on PostgreSQL, ${version.label}`, () => {
    let database: TestDatabase;
    beforeAll(() => {
      database = testDatabase('one_transaction', {}, version.pg);
    });
    afterAll(() => database?.drop());

    it('a new event costs one transaction and a duplicate one statement', async () => {
      const trips = roundTripsOf(database.pool);
      const executor = fromPg(database.pool);
      const { deliver } = await costs(executor, database.schema, trips);
      await expectOneEach(deliver);
    });
  });

describe('on PGlite', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await openPglite();
  }, 60_000);
  afterAll(() => db?.close());

  it('a new event costs one transaction and a duplicate one statement', async () => {
    const { deliver } = await costs(fromPglite(db), uniqueSchema('one_transaction'));
    await expectOneEach(deliver);
  });
});
