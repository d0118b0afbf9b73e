import {
  createDcbKit,
  type DcbKit,
  type DcbKitConfig,
  memoryLedger,
  memoryStore,
  silentLogger,
} from '@dcbkit/core';
import type { EntitlementStore, EventLedger } from '@dcbkit/core/store';
import { signWebhook } from '@dcbkit/core/webhooks';
import { offerDefinitionsOf, type Sandbox } from '@dcbkit/sandbox';
import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import { pgliteStore, postgresStore, type SqlStore } from '@dcbkit/store-postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import {
  DATABASE_URL,
  testDatabase,
  uniqueSchema,
} from '../../packages/store-postgres/src/test-support/database.js';
import { openPglite } from '../../packages/store-postgres/src/test-support/pglite.js';
import { type SwitchableReceiver, switchableReceiver } from '../support/switchable-receiver.js';

// The repro: account A buys the paid monthly subscription with line +21620000011, then
// account B (another account on the same phone) buys it with the same line. The sandbox, as the
// service, charges the line for both; the kit sees it at B's payment.

const OFFER = 'offer_premium_monthly_paid';
const LINE = '+21620000011';
const DAY = 86_400;

type Kit = DcbKit<EntitlementStore>;

interface Stores {
  store: EntitlementStore;
  ledger: EventLedger;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function world(stores: Stores, linePolicy: DcbKitConfig['linePolicy']) {
  const sandbox = await startTestSandbox();
  closers.push(() => sandbox.close());
  const kit = kitOn(sandbox, stores, linePolicy);
  const receiver = await switchableReceiver(kit);
  closers.push(() => receiver.close());
  sandbox.setWebhookUrl(`${receiver.url}/webhooks`);
  return { sandbox, kit, receiver };
}

function kitOn(
  sandbox: Sandbox,
  { store, ledger }: Stores,
  linePolicy: DcbKitConfig['linePolicy'],
): DcbKit<EntitlementStore> {
  return createDcbKit({
    client: {
      environment: 'sandbox',
      baseUrl: sandbox.apiBaseUrl,
      clientId: sandbox.credentials.clientId,
      clientSecret: sandbox.credentials.clientSecret,
    },
    webhookSecrets: sandbox.credentials.webhookSecret,
    offers: offerDefinitionsOf(sandbox.config),
    logger: silentLogger,
    now: () => sandbox.clock.now(),
    store,
    ledger,
    ...(linePolicy ? { linePolicy } : {}),
  });
}

/** Pays the offer for `accountKey` from LINE; resolves to its subscriptionUid. */
async function subscribe(sandbox: Sandbox, kit: Kit, accountKey: string): Promise<string> {
  const payment = await kit.client.payments.create({
    mode: 'HOSTED',
    offerUid: OFFER,
    returnUrl: 'https://partner.example/return',
    metadata: { accountKey },
  });
  const outcome = await createCheckoutDriver(sandbox).pay(payment.checkoutUrl, { msisdn: LINE });
  expect(outcome.status).toBe('SUCCEEDED');
  const paid = await kit.client.payments.retrieve(payment.paymentUid);
  return paid.subscriptionUid ?? '';
}

/** Renewals the sandbox collected, per subscription. */
function renewalsOf(sandbox: Sandbox, subscriptionUid: string): number {
  return sandbox
    .webhooks()
    .filter(
      (delivery) =>
        delivery.event === 'entitlement.updated' &&
        delivery.payload.subscriptionUid === subscriptionUid &&
        delivery.payload.orderId !== undefined,
    ).length;
}

async function lineEntries(kit: Kit, accountKey: string) {
  const { products } = await kit.explain(accountKey);
  return products
    .flatMap((product) => product.history)
    .filter((entry) => entry.decision === 'line_pays_twice');
}

async function expectLineNamed(kit: Kit, subscriberUid: string, accounts: readonly string[]) {
  for (const accountKey of accounts) {
    const entries = await lineEntries(kit, accountKey);
    expect(entries.length, accountKey).toBeGreaterThan(0);
    expect(entries[0]?.subscriberUid, accountKey).toBe(subscriberUid);
  }
}

type StoreMaker = () => Promise<Stores>;

type PGlite = Awaited<ReturnType<typeof openPglite>>;
let pglite: PGlite | undefined;
beforeAll(async () => {
  pglite = await openPglite();
}, 60_000);
afterAll(() => pglite?.close());

const STORES: [string, StoreMaker][] = [
  ['memory', async () => ({ store: memoryStore(), ledger: memoryLedger() })],
  [
    'PGlite',
    async () => {
      const sql = await pgliteStore({ db: pglite as PGlite, schema: uniqueSchema('line') });
      return sql;
    },
  ],
];
if (DATABASE_URL) {
  STORES.push([
    'PostgreSQL',
    async () => {
      const database = testDatabase('line');
      closers.push(() => database.drop());
      const sql = postgresStore({ pool: database.pool, schema: database.schema });
      await sql.migrate();
      return sql;
    },
  ]);
}

describe.each(STORES)('one line, two accounts, one product, on %s', (_name, makeStores) => {
  it('cancel-newer: the newer subscription is PRE_CANCELED and never renews; both histories name the line', async () => {
    const { sandbox, kit } = await world(await makeStores(), 'cancel-newer');
    const older = await subscribe(sandbox, kit, 'acct_a');
    await sandbox.deliverDue();
    // The frozen clock moves on, as real time would: B pays after A.
    await sandbox.advanceClock(60);
    const newer = await subscribe(sandbox, kit, 'acct_b');
    await sandbox.deliverDue();

    const line = (await kit.client.subscriptions.retrieve(older)).subscriberUid;
    expect((await kit.client.subscriptions.retrieve(newer)).subscriberUid).toBe(line);
    expect((await kit.client.subscriptions.retrieve(newer)).status).toBe('PRE_CANCELED');
    expect((await kit.client.subscriptions.retrieve(older)).status).toBe('ACTIVE');
    await expectLineNamed(kit, line, ['acct_a', 'acct_b']);
    const explained = await kit.explainLine(line, { read: true });
    expect(explained.paysTwice).toEqual([
      { productUid: expect.any(String), subscriptionUids: [older, newer], accountKeys: ['acct_a', 'acct_b'] },
    ]);
    expect(explained.accounts.map((account) => account.products[0]?.service?.drift)).toEqual([false, false]);

    // A month on: the line is charged once, for the older subscription; the newer one has ended.
    await sandbox.advanceClock(31 * DAY);
    await sandbox.deliverDue();
    expect(renewalsOf(sandbox, older)).toBe(1);
    expect(renewalsOf(sandbox, newer)).toBe(0);
    expect((await kit.client.subscriptions.retrieve(newer)).status).toBe('EXPIRED');
    expect((await kit.explainLine(line)).paysTwice).toEqual([]);
  });

  it('report (the default): both keep access and both renew; both histories name the line', async () => {
    const { sandbox, kit } = await world(await makeStores(), undefined);
    const older = await subscribe(sandbox, kit, 'acct_a');
    await sandbox.deliverDue();
    // The frozen clock moves on, as real time would: B pays after A.
    await sandbox.advanceClock(60);
    const newer = await subscribe(sandbox, kit, 'acct_b');
    await sandbox.deliverDue();
    const line = (await kit.client.subscriptions.retrieve(older)).subscriberUid;
    expect((await kit.client.subscriptions.retrieve(newer)).status).toBe('ACTIVE');
    await expectLineNamed(kit, line, ['acct_a', 'acct_b']);
    expect((await kit.explainLine(line)).paysTwice).toHaveLength(1);
    await sandbox.advanceClock(31 * DAY);
    await sandbox.deliverDue();
    expect(renewalsOf(sandbox, older)).toBe(1);
    expect(renewalsOf(sandbox, newer)).toBe(1);
    expect((await kit.explainLine(line)).paysTwice).toHaveLength(1);
  });
});

describe.skipIf(!DATABASE_URL)('two instances sharing PostgreSQL receive the two payments at once', () => {
  it('cancel-newer cancels the newer subscription, whichever instance sees the line', async () => {
    const database = testDatabase('line_two');
    closers.push(() => database.drop());
    const sqlStores: SqlStore[] = [0, 1].map(() =>
      postgresStore({ connectionString: DATABASE_URL ?? '', schema: database.schema, maxConnections: 4 }),
    );
    for (const sql of sqlStores) closers.push(() => sql.close());
    await sqlStores[0]?.migrate();
    const sandbox = await startTestSandbox();
    closers.push(() => sandbox.close());
    const [one, two] = sqlStores.map((sql) => kitOn(sandbox, sql, 'cancel-newer')) as [Kit, Kit];
    // Down while both pay: the two payment events wait, then go to one instance each at once.
    const receiver: SwitchableReceiver = await switchableReceiver(one);
    closers.push(() => receiver.close());
    receiver.up = false;
    sandbox.setWebhookUrl(`${receiver.url}/webhooks`);
    const older = await subscribe(sandbox, one, 'acct_a');
    await sandbox.advanceClock(60);
    const newer = await subscribe(sandbox, two, 'acct_b');
    await sandbox.deliverDue();
    const payload = (subscriptionUid: string) =>
      sandbox
        .webhooks()
        .find(
          (delivery) =>
            delivery.event === 'payment.succeeded' && delivery.payload.subscriptionUid === subscriptionUid,
        )?.payload;
    const signed = (event: unknown) => {
      const rawBody = Buffer.from(JSON.stringify(event));
      return {
        rawBody,
        headers: {
          'content-type': 'application/json',
          'service-signature': signWebhook({ payload: rawBody, secret: sandbox.credentials.webhookSecret }),
        },
      };
    };
    const answers = await Promise.all([
      one.webhook(signed(payload(older))),
      two.webhook(signed(payload(newer))),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    receiver.up = true;
    await sandbox.advanceClock(60);
    await sandbox.deliverDue();

    expect((await one.client.subscriptions.retrieve(newer)).status).toBe('PRE_CANCELED');
    expect((await one.client.subscriptions.retrieve(older)).status).toBe('ACTIVE');
    const line = (await one.client.subscriptions.retrieve(older)).subscriberUid;
    await expectLineNamed(one, line, ['acct_a', 'acct_b']);
    expect((await two.explainLine(line)).paysTwice).toEqual([
      { productUid: expect.any(String), subscriptionUids: [older, newer], accountKeys: ['acct_a', 'acct_b'] },
    ]);
    await sandbox.advanceClock(31 * DAY);
    await sandbox.deliverDue();
    expect(renewalsOf(sandbox, older)).toBe(1);
    expect(renewalsOf(sandbox, newer)).toBe(0);
  });
});
