import { createClient, createDcbKit, memoryLedger, memoryStore, reconcile } from '@dcbkit/core';
import { createPartnerRoutes } from '@dcbkit/core/node';
import { createFetchRoutes, createFetchWebhook, createWebhookHandler } from '@dcbkit/core/web';
import { createClock, startSandbox } from '@dcbkit/sandbox';
import { createCheckoutDriver, runPartnerCheck, signInWithForm } from '@dcbkit/sandbox/testing';
import { createSqlStore, pgliteStore, postgresStore } from '@dcbkit/store-postgres';
import { describe, expect, it } from 'vitest';

// Issue 54: every public factory that takes an options object refuses one it does not know,
// with the same DcbError (`unknown_option`, the option and the nearest known one in `details`),
// before it starts anything. Each factory below is given a misspelling of one of its own options.

const clientOptions = {
  environment: 'sandbox',
  baseUrl: 'http://127.0.0.1:1',
  clientId: 'svc_test_x',
  clientSecret: 's',
} as const;
const client = createClient(clientOptions);
const store = memoryStore();
const ledger = memoryLedger();

/** What a factory threw (or its promise rejected with), for one misspelt option. */
async function refusalOf(make: () => unknown): Promise<unknown> {
  try {
    await make();
  } catch (error) {
    return error;
  }
  throw new Error('expected the factory to refuse the option');
}

const FACTORIES: Array<[string, () => unknown, string, string]> = [
  [
    'createDcbKit',
    () => createDcbKit({ client, webhookSecrets: 'whsec_x', offers: [], histroyRetentionDays: 30 } as never),
    'histroyRetentionDays',
    'historyRetentionDays',
  ],
  ['createClient', () => createClient({ ...clientOptions, timeoutMS: 5 } as never), 'timeoutMS', 'timeoutMs'],
  [
    'createPartnerRoutes',
    () =>
      createPartnerRoutes({
        client,
        store,
        offers: createDcbKit({ client, webhookSecrets: 'w', offers: [] }).offers,
        grantSucceededPayment: async () => ({ outcome: 'not_succeeded', entitlement: undefined }),
        returnUrl: 'https://shop.example/return',
        allowedOrigin: ['https://shop.example'],
      } as never),
    'allowedOrigin',
    'allowedOrigins',
  ],
  [
    'createWebhookHandler',
    () => createWebhookHandler({ secrets: 'w', store, ledger, offers: [], toleranceSecond: 5 } as never),
    'toleranceSecond',
    'toleranceSeconds',
  ],
  ['memoryStore', () => memoryStore({ historyLimits: 5 } as never), 'historyLimits', 'historyLimit'],
  ['memoryLedger', () => memoryLedger({ maxi: 5 } as never), 'maxi', 'max'],
  ['reconcile', () => reconcile({ client, store, offers: [], dryrun: true } as never), 'dryrun', 'dryRun'],
  [
    'createFetchWebhook',
    () =>
      createFetchWebhook(createWebhookHandler({ secrets: 'w', store, ledger, offers: [] }), {
        mountHint: 'x',
      } as never),
    'mountHint',
    'mountingHint',
  ],
  [
    'createFetchRoutes',
    () =>
      createFetchRoutes({ routes: {} as never, signedInAccount: () => undefined, offerPage: '/' } as never),
    'offerPage',
    'offersPage',
  ],
  [
    'postgresStore',
    () => postgresStore({ connectionString: 'postgres://127.0.0.1:1/x', tablePrefx: 'x' } as never),
    'tablePrefx',
    'tablePrefix',
  ],
  ['pgliteStore', () => pgliteStore({ dataDr: '/tmp/never-made' } as never), 'dataDr', 'dataDir'],
  [
    'createSqlStore',
    () => createSqlStore({ transaction: async () => undefined } as never, { schema: 'x', lease: 1 } as never),
    'lease',
    'leaseMs',
  ],
  [
    'startSandbox',
    () => startSandbox({ port: 0, webhookURL: 'http://127.0.0.1:9/x' } as never),
    'webhookURL',
    'webhookUrl',
  ],
  ['createClock', () => createClock({ frozn: true } as never), 'frozn', 'frozen'],
  [
    'createCheckoutDriver',
    () =>
      createCheckoutDriver({ checkoutBaseUrl: 'http://127.0.0.1:9' } as never, { locales: 'fr' } as never),
    'locales',
    'locale',
  ],
  [
    'runPartnerCheck',
    () => runPartnerCheck({ sandbox: {}, appUrl: 'http://127.0.0.1:9', seeds: 1 } as never),
    'seeds',
    'seed',
  ],
  [
    'signInWithForm',
    () => signInWithForm({ appUrl: 'http://127.0.0.1:9', path: '/sign-in', fields: {}, timeout: 5 } as never),
    'timeout',
    'timeoutMs',
  ],
];

describe('every factory refuses an option it does not know', () => {
  it('but createClient takes a sandbox’s credentials spread whole, as the docs show (webhookSecret unused)', () => {
    expect(() => createClient({ ...clientOptions, webhookSecret: 'whsec_x' } as never)).not.toThrow();
  });

  it.each(FACTORIES)('%s', async (name, make, option, nearest) => {
    const error = await refusalOf(make);
    expect(error).toMatchObject({ code: 'unknown_option', details: { option, nearest } });
    expect((error as Error).message).toMatch(
      new RegExp(`^${name}: ${option} is not an option\\. Did you mean ${nearest}\\?`),
    );
  });
});
