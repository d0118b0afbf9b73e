import { createDcbKit, type DcbKit, silentLogger } from '@dcbkit/core';
import type { EntitlementStore } from '@dcbkit/core/store';
import { offerDefinitionsOf, type Sandbox } from '@dcbkit/sandbox';
import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { type SwitchableReceiver, switchableReceiver } from '../support/switchable-receiver.js';

export const RETURN_URL = 'https://shop.example/billing/return';

/**
 * A partner app on the embedded sandbox, as the business view sees it: a kit on the store under
 * test, a webhook receiver that can be taken down, and a log of the units the shop let its subscribers spend (the service never hears of them).
 */
export interface PlantedWorld {
  sandbox: Sandbox;
  kit: DcbKit<EntitlementStore>;
  /** `receiver.up = false`: it answers 500 to every delivery. */
  receiver: SwitchableReceiver;
  /** Each unit spent through the kit's route: when, and of which offer. */
  spent: Array<{ at: string; offerUid: string }>;
  close(): Promise<void>;
}

export async function startPlantedWorld(store: EntitlementStore): Promise<PlantedWorld> {
  // The sandbox's own records are the truth the test compares with: it keeps them all.
  const sandbox = await startTestSandbox({
    configure: (config) => {
      config.retention = { endedPaymentsSeconds: null, deliveredEventsSeconds: null };
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
    logger: silentLogger,
    now: () => sandbox.clock.now(),
  });
  const receiver = await switchableReceiver(kit);
  sandbox.setWebhookUrl(`${receiver.url}/webhooks`);
  return {
    spent: [],
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
): Promise<string | undefined> {
  const payment = await world.kit.client.payments.create({
    mode: 'HOSTED',
    offerUid,
    returnUrl: RETURN_URL,
    metadata: { accountKey },
  });
  const outcome = await createCheckoutDriver(world.sandbox).pay(payment.checkoutUrl);
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
