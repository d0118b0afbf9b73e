import {
  type CreateClientOptions,
  createDcbKit,
  type DcbKit,
  type DcbKitConfig,
  silentLogger,
} from '@dcbkit/core';
import { offerDefinitionsOf, type Sandbox } from '@dcbkit/sandbox';
import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { type SwitchableReceiver, switchableReceiver } from '../support/switchable-receiver.js';

/** What the kit's accessGranted and accessRevoked listeners receive. */
type AccessContext = Parameters<NonNullable<NonNullable<DcbKitConfig['on']>['accessGranted']>>[0];

export const OFFER = 'offer_premium_monthly';
export const DAY_SECONDS = 86_400;

/**
 * A partner app on the sandbox: a kit on a memory store, whose webhook receiver can be taken down
 * (it then answers 500, as a receiver whose store is out would), and the access listeners' calls.
 */
export interface OutageWorld {
  sandbox: Sandbox;
  kit: DcbKit;
  /** `receiver.up = false`: it answers 500 to every delivery. */
  receiver: SwitchableReceiver;
  granted: AccessContext[];
  revoked: AccessContext[];
  close(): Promise<void>;
}

export async function startOutageWorld(
  options: { client?: Partial<CreateClientOptions>; kit?: Partial<DcbKitConfig>; sandboxStart?: string } = {},
): Promise<OutageWorld> {
  const sandbox = await startTestSandbox(options.sandboxStart ? { start: options.sandboxStart } : {});
  const granted: AccessContext[] = [];
  const revoked: AccessContext[] = [];
  const kit = createDcbKit({
    client: {
      environment: 'sandbox',
      baseUrl: sandbox.apiBaseUrl,
      clientId: sandbox.credentials.clientId,
      clientSecret: sandbox.credentials.clientSecret,
      ...options.client,
    },
    webhookSecrets: sandbox.credentials.webhookSecret,
    offers: offerDefinitionsOf(sandbox.config),
    logger: silentLogger,
    now: () => sandbox.clock.now(),
    on: {
      accessGranted: (context) => void granted.push(context),
      accessRevoked: (context) => void revoked.push(context),
    },
    ...options.kit,
  });
  const receiver = await switchableReceiver(kit);
  sandbox.setWebhookUrl(`${receiver.url}/webhooks`);
  return {
    sandbox,
    kit,
    receiver,
    granted,
    revoked,
    async close() {
      await sandbox.close();
      await receiver.close();
    },
  };
}

/** Subscribes `accountKey` through the checkout (a fresh line, or `msisdn`) and returns the subscriptionUid. */
export async function subscribe(world: OutageWorld, accountKey: string, msisdn?: string): Promise<string> {
  const payment = await createPayment(world, accountKey);
  const outcome = await createCheckoutDriver(world.sandbox).pay(
    payment.checkoutUrl,
    msisdn ? { msisdn } : {},
  );
  if (outcome.status !== 'SUCCEEDED') throw new Error(`checkout ended ${outcome.status}`);
  const paid = await world.kit.client.payments.retrieve(payment.paymentUid);
  if (paid.subscriptionUid === undefined) throw new Error('no subscription');
  return paid.subscriptionUid;
}

export function createPayment(world: OutageWorld, accountKey: string) {
  return world.kit.client.payments.create({
    mode: 'HOSTED',
    offerUid: OFFER,
    returnUrl: 'https://partner.example/return',
    metadata: { accountKey },
  });
}

/** Runs every webhook attempt due, then says how many events are still waiting for an attempt. */
export async function pendingDeliveries(world: OutageWorld): Promise<number> {
  await world.sandbox.deliverDue();
  return world.sandbox.webhooks().filter((delivery) => delivery.status === 'PENDING').length;
}
