import {
  createClient,
  createPartnerRoutes,
  createWebhookHandler,
  defineOffers,
  type EntitlementStore,
  memoryLedger,
  memoryStore,
  type Offers,
  type PartnerRoutes,
  type WebhookHandler,
} from '@dcbkit/core';
import { offerDefinitionsOf, type Sandbox } from '@dcbkit/sandbox';

/** What a partner app holds: the client, its store and the core pieces the adapters wrap. */
export interface PartnerKit {
  store: EntitlementStore;
  offers: Offers;
  webhooks: WebhookHandler;
  routes: PartnerRoutes;
  /** Every line the webhook handler logged. */
  logs: string[];
}

export function createPartnerKit(sandbox: Sandbox, returnUrl: string): PartnerKit {
  const logs: string[] = [];
  const logger = { warn: (line: string) => logs.push(line), error: (line: string) => logs.push(line) };
  const now = () => sandbox.clock.now();
  const store = memoryStore();
  const offers = defineOffers(offerDefinitionsOf(sandbox.config));
  const client = createClient({
    environment: 'sandbox',
    baseUrl: sandbox.apiBaseUrl,
    clientId: sandbox.credentials.clientId,
    clientSecret: sandbox.credentials.clientSecret,
    now,
  });
  const webhooks = createWebhookHandler({
    secrets: sandbox.credentials.webhookSecret,
    store,
    ledger: memoryLedger(),
    offers,
    logger,
  });
  const routes = createPartnerRoutes({
    client,
    store,
    offers,
    grantFromPayment: webhooks.grantFromPayment,
    returnUrl,
    now,
  });
  return { store, offers, webhooks, routes, logs };
}
