import { createCheckoutNonce, type RouteResult } from '@dcbkit/core/node';
import type { Sandbox } from '@dcbkit/sandbox';
import { postgresStore, type SqlStore } from '@dcbkit/store-postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import {
  DATABASE_URL,
  type TestDatabase,
  testDatabase,
} from '../../packages/store-postgres/src/test-support/database.js';
import { createPartnerKit } from '../support/partner-kit.js';

// Two instances of one app behind a load balancer, sharing PostgreSQL: a customer's double click
// lands on both at once. The store's lock makes them start one payment between them.

const ACCOUNTS = ['alice', 'bob', 'carol', 'dave', 'erin'];

let sandbox: Sandbox | undefined;
let database: TestDatabase | undefined;
const stores: SqlStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await database?.drop();
  await sandbox?.close();
  sandbox = undefined;
  database = undefined;
});

function locationOf(result: RouteResult): string | undefined {
  return result.type === 'redirect' ? result.location : undefined;
}

describe.skipIf(!DATABASE_URL)('checkout across two instances on PostgreSQL', () => {
  it('starts at most one payment per account and product when both instances take the same checkout at once', async () => {
    sandbox = await startTestSandbox();
    database = testDatabase('checkout');
    const { schema } = database;
    for (let instance = 0; instance < 2; instance++) {
      // Each instance has its own pool, as two processes would.
      stores.push(postgresStore({ connectionString: DATABASE_URL ?? '', schema, maxConnections: 4 }));
    }
    await stores[0]?.migrate();
    const kits = stores.map((store) =>
      createPartnerKit(sandbox as Sandbox, 'https://shop.example/return', {
        store: store.store,
        ledger: store.ledger,
      }),
    );

    const submits = ACCOUNTS.flatMap((accountKey) =>
      kits.flatMap((kit) =>
        [0, 1].map(() =>
          kit.routes.checkout({
            accountKey,
            fields: { offerUid: 'offer_premium_monthly', nonce: createCheckoutNonce() },
          }),
        ),
      ),
    );
    const results = await Promise.all(submits);

    const answer = await fetch(`${sandbox.apiBaseUrl}/sandbox/payments`);
    const payments = (
      (await answer.json()) as { data: { paymentUid: string; metadata: Record<string, string> }[] }
    ).data;
    expect(payments).toHaveLength(ACCOUNTS.length);
    ACCOUNTS.forEach((accountKey, index) => {
      const mine = results.slice(index * 4, index * 4 + 4).map(locationOf);
      const payment = payments.find((candidate) => candidate.metadata.accountKey === accountKey);
      expect(payment, accountKey).toBeDefined();
      // Every submit of the account went to the one checkout.
      expect(new Set(mine)).toEqual(new Set([`${sandbox?.checkoutBaseUrl}/c/${payment?.paymentUid}`]));
    });
  });
});
