import { createDcbKit, type DcbKit, type DcbKitConfig, silentLogger } from '@dcbkit/core';
import { type EntitlementStore, isOnceStore } from '@dcbkit/core/store';
import { offerDefinitionsOf, type Sandbox } from '@dcbkit/sandbox';
import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import {
  startTestSandbox,
  type TestSandboxOptions,
} from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { type SwitchableReceiver, switchableReceiver } from '../support/switchable-receiver.js';
import { plantCheckouts, type RoutedCheckout } from './planted-checkouts.js';

export const RETURN_URL = 'https://shop.example/billing/return';

const TRIAL = 'offer_premium_monthly';
const PAID = 'offer_premium_monthly_paid';
const PASS = 'offer_day_pass';
const UNLOCK = 'offer_full_unlock';
/** The months the planted history spans, as the metrics' month buckets start. */
export const MONTHS = ['2030-01-01', '2030-02-01', '2030-03-01', '2030-04-01'].map(
  (day) => `${day}T00:00:00.000Z`,
);
/** The end of the last month planted: a metrics query to here sees every fact. */
export const PLANTED_UNTIL = '2030-05-01T00:00:00.000Z';

/**
 * A partner app on the embedded sandbox, as the business view sees it: a kit on the store under
 * test, a webhook receiver that can be taken down, and a log of the units the shop let its subscribers spend (the service never hears of them).
 */
export interface PlantedWorld<S extends EntitlementStore = EntitlementStore> {
  sandbox: Sandbox;
  kit: DcbKit<S>;
  /** `receiver.up = false`: it answers 500 to every delivery. */
  receiver: SwitchableReceiver;
  /** Each unit spent through the kit's route: when, and of which offer. */
  spent: Array<{ at: string; offerUid: string }>;
  /** The payments the kit's checkout route created: the checkouts the funnel counts. */
  routed: string[];
  close(): Promise<void>;
}

/** What a world may change: the sandbox's config (its offers, say) and the kit's options. */
export interface WorldOptions {
  configure?: TestSandboxOptions['configure'];
  kit?: Pick<DcbKitConfig, 'linePolicy'>;
}

export async function startPlantedWorld<S extends EntitlementStore>(
  store: S,
  options: WorldOptions = {},
): Promise<PlantedWorld<S>> {
  // The sandbox's own records are the truth the test compares with: it keeps them all.
  const sandbox = await startTestSandbox({
    configure: (config) => {
      config.retention = { endedPaymentsSeconds: null, deliveredEventsSeconds: null };
      options.configure?.(config);
    },
  });
  const kit = createDcbKit({
    client: {
      environment: 'sandbox',
      baseUrl: sandbox.apiBaseUrl,
      clientId: sandbox.credentials.clientId,
      clientSecret: sandbox.credentials.clientSecret,
    },
    webhookSecrets: sandbox.credentials.webhookSecret,
    offers: offerDefinitionsOf(sandbox.config),
    returnUrl: RETURN_URL,
    store,
    // A SQL store applies each event in one transaction with its own ledger, as in production.
    ...(isOnceStore(store) ? { ledger: store.onceLedger } : {}),
    logger: silentLogger,
    now: () => sandbox.clock.now(),
    ...options.kit,
  });
  const receiver = await switchableReceiver(kit);
  sandbox.setWebhookUrl(`${receiver.url}/webhooks`);
  return {
    spent: [],
    routed: [],
    sandbox,
    kit,
    receiver,
    async close() {
      await sandbox.close();
      await receiver.close();
    },
  };
}

/**
 * Buys `offerUid` for the account through the checkout, from a fresh line; with `returnPage`, the
 * return page then reads the payment (a second sighting of the same facts). Resolves to the
 * payment's subscriptionUid, if any.
 */
export async function buy(
  world: PlantedWorld,
  accountKey: string,
  offerUid: string,
  returnPage: boolean,
  msisdn?: string,
): Promise<string | undefined> {
  const payment = await world.kit.client.payments.create({
    mode: 'HOSTED',
    offerUid,
    returnUrl: RETURN_URL,
    metadata: { accountKey },
  });
  const outcome = await createCheckoutDriver(world.sandbox).pay(
    payment.checkoutUrl,
    msisdn === undefined ? {} : { msisdn },
  );
  if (outcome.status !== 'SUCCEEDED') throw new Error(`checkout of ${offerUid} ended ${outcome.status}`);
  const paid = await world.kit.client.payments.retrieve(payment.paymentUid);
  if (returnPage) await world.kit.grantFromPayment(paid);
  return paid.subscriptionUid;
}

/** Spends a unit through the kit's route, as the shop's "use a pass" form does. */
export async function spend(world: PlantedWorld, accountKey: string, productUid: string): Promise<void> {
  const { origin } = new URL(RETURN_URL);
  const result = await world.kit.routes.spendUnit({
    accountKey,
    method: 'POST',
    fields: { productUid, token: world.kit.routes.formToken(accountKey) },
    request: { origin, secFetchSite: 'same-origin', simpleBody: true },
  });
  if (result.type !== 'view') throw new Error(`spendUnit answered ${result.type}`);
  const entitlement = await world.kit.store.get(accountKey, productUid);
  world.spent.push({ at: world.sandbox.clock.now().toISOString(), offerUid: entitlement?.offerUid ?? '' });
}

/** Moves the sandbox's clock by whole days, a day at a time, delivering what falls due. */
export async function advanceDays(world: PlantedWorld, days: number): Promise<void> {
  for (let day = 0; day < days; day++) {
    await world.sandbox.advanceClock(86_400);
    await world.sandbox.deliverDue();
  }
}

/** t01's line (a fresh one of Sahel Mobile): a checkout of the same trial on it is refused, SUB-108. */
const TRIAL_LINE = '+21621555001';

const accounts = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(2, '0')}`);

/** Subscriptions by account, and the passes bought, planted on January 1. */
async function plantPurchases(world: PlantedWorld) {
  const subscriptions = new Map<string, string>();
  const all = [...accounts('t', 20).map((a) => [a, TRIAL]), ...accounts('p', 20).map((a) => [a, PAID])];
  for (const [index, [account, offer]] of all.entries()) {
    const line = index === 0 ? TRIAL_LINE : undefined;
    const uid = await buy(world, account as string, offer as string, index % 2 === 0, line);
    subscriptions.set(account as string, uid ?? '');
  }
  for (const [index, account] of accounts('d', 12).entries()) {
    for (let pass = 0; pass <= index % 3; pass++) await buy(world, account, PASS, pass === 0);
  }
  for (const [index, account] of accounts('u', 7).entries())
    await buy(world, account, UNLOCK, index % 2 === 1);
  return subscriptions;
}

/**
 * The checkouts the shop's pages start through the kit's routes (the funnel counts these alone),
 * by month, each on an account of its own: paid ones, refused lines of every code, failed charges,
 * an abandoned page, cancellations, some left to expire, and in April one still open at the end.
 */
const ROUTED: Record<'january' | 'february' | 'march' | 'april', RoutedCheckout[]> = {
  january: [
    { account: 'c01', offerUid: PASS, ending: 'paid' },
    { account: 'c02', offerUid: UNLOCK, ending: 'paid' },
    { account: 'c03', offerUid: PAID, ending: 'paid' },
    { account: 'c04', offerUid: PASS, ending: 'opted-out' },
    { account: 'c05', offerUid: PAID, ending: 'invalid-number' },
    { account: 'c06', offerUid: UNLOCK, ending: 'unsupported-operator' },
    { account: 'c07', offerUid: TRIAL, ending: 'trial-used' },
    { account: 'c08', offerUid: PASS, ending: 'no-balance' },
    { account: 'c09', offerUid: PAID, ending: 'declined' },
    { account: 'c10', offerUid: TRIAL, ending: 'wrong-pin' },
    { account: 'c11', offerUid: PASS, ending: 'abandoned' },
    { account: 'c12', offerUid: UNLOCK, ending: 'canceled' },
    { account: 'c13', offerUid: PASS, ending: 'left-open' },
  ],
  february: [
    { account: 'c14', offerUid: PASS, ending: 'paid' },
    { account: 'c15', offerUid: PAID, ending: 'declined' },
    { account: 'c16', offerUid: PASS, ending: 'left-open' },
    { account: 'c17', offerUid: PASS, ending: 'opted-out' },
  ],
  march: [
    { account: 'c18', offerUid: PAID, ending: 'paid' },
    { account: 'c19', offerUid: TRIAL, ending: 'trial-used' },
    { account: 'c20', offerUid: UNLOCK, ending: 'canceled' },
  ],
  april: [
    { account: 'c21', offerUid: UNLOCK, ending: 'paid' },
    { account: 'c22', offerUid: PASS, ending: 'left-open' },
    { account: 'c23', offerUid: PASS, ending: 'no-balance' },
  ],
};

/** The checkouts of one month, through the kit's routes, recorded in `world.routed`. */
function plantRouted(world: PlantedWorld, month: keyof typeof ROUTED) {
  const { kit, sandbox, routed } = world;
  const origin = new URL(RETURN_URL).origin;
  return plantCheckouts({ kit, sandbox, origin, trialLine: TRIAL_LINE, routed }, ROUTED[month]);
}

/**
 * Issue 36's history, planted on the world's clock from January 1, 2030 to April 7: 59 subscribers;
 * trials that convert, that are cancelled and that fail; renewals collected and failed; grace
 * recovered and exhausted; cancellations now and at period end; passes bought and spent; unlocks;
 * and each month checkouts through the kit's routes that are paid, refused, failed, cancelled, left
 * to expire (and, as April 7 ends the history, one still open). Every delivery may come twice or out of order, and a three-day webhook outage is repaired by
 * reconciliation, then its dead letters replayed.
 */
export async function plantThreeMonths(world: PlantedWorld): Promise<void> {
  world.sandbox.setChaos({ seed: 36, duplicateProbability: 0.3, reorderProbability: 0.2 });
  const subscriptions = await plantPurchases(world);
  await plantRouted(world, 'january');
  const sub = (account: string) => subscriptions.get(account) as string;
  const subscriptionsApi = world.kit.client.subscriptions;

  // Trials: t09-t12 cancelled before their end; t13-t16 pay a day late; t17-t20 never pay.
  for (const account of accounts('t', 20).slice(12, 16)) {
    world.sandbox.setRenewalOutcome(sub(account), 'insufficient_balance', 1);
  }
  for (const account of accounts('t', 20).slice(16))
    world.sandbox.setRenewalOutcome(sub(account), 'declined');
  // Paid: p09-p12 pay February's renewal a day late.
  for (const account of accounts('p', 20).slice(8, 12)) {
    world.sandbox.setRenewalOutcome(sub(account), 'insufficient_balance', 1);
  }
  await advanceDays(world, 3);
  for (const account of accounts('t', 20).slice(8, 12)) {
    await subscriptionsApi.cancel(sub(account), { when: 'PERIOD_END' });
  }
  await advanceDays(world, 7);
  for (const account of accounts('d', 12)) await spend(world, account, 'prod_day_pass');
  await advanceDays(world, 5); // January 16: p17-p20 stop at the period's end
  for (const account of accounts('p', 20).slice(16)) {
    await subscriptionsApi.cancel(sub(account), { when: 'PERIOD_END' });
  }
  await advanceDays(world, 4); // January 20: p13-p16 stop now
  for (const account of accounts('p', 20).slice(12, 16))
    await subscriptionsApi.cancel(sub(account), { when: 'NOW' });

  await advanceDays(world, 20); // February 9
  await plantRouted(world, 'february');
  await advanceDays(world, 19); // February 28, the night before March's renewals
  world.receiver.up = false;
  await advanceDays(world, 3); // every attempt of three days refused: dead letters
  world.receiver.up = true;
  if (!world.sandbox.webhooks().some((delivery) => delivery.status === 'DEAD_LETTERED')) {
    throw new Error('the outage should have dead-lettered deliveries');
  }
  const repaired = await world.kit.reconcile();
  if (repaired.failures.length > 0 || repaired.changes.length === 0) {
    throw new Error(`reconciliation should repair the outage: ${JSON.stringify(repaired.failures)}`);
  }
  for (const delivery of world.sandbox.webhooks()) {
    if (delivery.status === 'DEAD_LETTERED') await world.sandbox.replayWebhook(delivery.id);
  }
  await advanceDays(world, 12); // March 15
  await plantRouted(world, 'march');
  await advanceDays(world, 23); // April 7
  // Those who bought more than one pass use a second.
  for (const [index, account] of accounts('d', 12).entries()) {
    if (index % 3 >= 1) await spend(world, account, 'prod_day_pass');
  }
  await plantRouted(world, 'april');
  // Ten minutes for their webhooks to land: the last checkout left open is still open.
  await world.sandbox.advanceClock(600);
  await world.sandbox.deliverDue();
  // The shop's reconciler's pass: the service sends no webhook when a checkout expires, so the
  // kit learns it by reading the payments it still holds open.
  const settled = await world.kit.reconcile();
  if (settled.failures.length > 0)
    throw new Error(`reconciliation failed: ${JSON.stringify(settled.failures)}`);
}
