import { createDcbKit, type DcbKit, isDcbError } from '@dcbkit/core';
import { type Sandbox, startSandbox } from '@dcbkit/sandbox';
import type { EmbeddedSandboxConfig, ServiceConfig, ShopConfig } from './config.js';
import type { ShopLogger } from './logger.js';
import { OFFERS } from './offer-definitions.js';
import { type ShopReconciler, startShopReconciler } from './reconciler.js';
import { openStore, type ShopStore } from './store.js';

/** The kit, and what the pages need to know about the billing environment. */
export interface Billing {
  kit: DcbKit;
  /** Where checkout pages come from: the only host the embedded checkout frame may load. Undefined: no embedded checkout. */
  checkoutBaseUrl: string | undefined;
  /** The embedded sandbox, when the shop runs one. */
  sandbox: Sandbox | undefined;
  /**
   * True when the embedded sandbox runs where production was expected (ALLOW_EMBEDDED_SANDBOX=true
   * with NODE_ENV=production or HOST beyond loopback): every page's banner then says it is an emulator.
   * Optional for a Billing a test assembles itself: absent is false.
   */
  emulatorInProduction?: boolean;
  /** Words for the startup line: which environment, which store. */
  description: string;
  /** Reconciliation every RECONCILE_EVERY_MINUTES, and its last runs for the operations view. */
  reconciler: ShopReconciler;
  /** Stops the reconciler, then closes the store (and the embedded sandbox). */
  close(): Promise<void>;
}

export interface StartBillingOptions {
  config: ShopConfig;
  /** The shop's own address, e.g. http://127.0.0.1:3000 (known once it listens). */
  shopUrl: string;
  logger: ShopLogger;
}

/** The webhook route; the service (or the embedded sandbox) posts every event here. */
export const WEBHOOK_PATH = '/webhooks/dcb';
/** The return page; the checkout sends the browser back here. */
export const RETURN_PATH = '/return';

/**
 * The kit on the billing environment the configuration chooses: the embedded sandbox or the
 * service. A start that fails lets go of what it opened before throwing.
 */
export async function startBilling({ config, shopUrl, logger }: StartBillingOptions): Promise<Billing> {
  const shopStore = await openStore(config);
  try {
    return config.mode === 'embedded-sandbox'
      ? await startOnEmbeddedSandbox(config, { shopUrl, logger, shopStore })
      : await startOnService(config, { shopUrl, logger, shopStore });
  } catch (error) {
    await shopStore.close();
    throw error;
  }
}

/** What either environment's start needs beyond its configuration. */
interface BillingParts {
  shopUrl: string;
  logger: ShopLogger;
  shopStore: ShopStore;
}

/** Starts the emulator of the service in this process, and the kit on it and on its clock. */
async function startOnEmbeddedSandbox(
  config: EmbeddedSandboxConfig,
  { shopUrl, logger, shopStore }: BillingParts,
): Promise<Billing> {
  // The emulator of the service, on another loopback port of this process, posting its signed
  // webhooks to this shop as the real service posts them to the URL set in its console.
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    webhookUrl: `${shopUrl}${WEBHOOK_PATH}`,
    log: (line) => logger.debug({ sandbox: true }, line),
  });
  try {
    const { clientId, clientSecret, webhookSecret } = sandbox.credentials;
    const { clock } = sandbox;
    const kit = createDcbKit({
      client: { environment: 'sandbox', baseUrl: sandbox.apiBaseUrl, clientId, clientSecret },
      webhookSecrets: webhookSecret,
      offers: OFFERS,
      returnUrl: `${shopUrl}${RETURN_PATH}`,
      logger,
      // The emulator's clock, which its control endpoints move: reads are stamped and access
      // judged by the same time as the events it sends, so a page never mixes two clocks.
      now: () => clock.now(),
    });
    // The client's own check, not kit.checkConnection(), which logs the failure too: serve.ts
    // prints a startup failure once, its fix first.
    await kit.client.checkConnection();
    const reconciler = startShopReconciler(kit, config.reconcileEveryMinutes);
    return {
      kit,
      checkoutBaseUrl: sandbox.checkoutBaseUrl,
      sandbox,
      emulatorInProduction: config.productionSigns.length > 0,
      description: 'the embedded sandbox (no money moves), entitlements in memory',
      reconciler,
      close: async () => {
        await reconciler.stop();
        await sandbox.close();
        await shopStore.close();
      },
    };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

/** The kit on the service's environment (DCB_*), its entitlements in the shop's store. */
async function startOnService(
  config: ServiceConfig,
  { shopUrl, logger, shopStore }: BillingParts,
): Promise<Billing> {
  const { dcb } = config;
  const kit = createDcbKit({
    ...dcb,
    offers: OFFERS,
    returnUrl: dcb.returnUrl ?? `${shopUrl}${RETURN_PATH}`,
    logger,
    ...(shopStore.store ? { store: shopStore.store } : {}),
    ...(shopStore.ledger ? { ledger: shopStore.ledger } : {}),
  });
  try {
    await kit.client.checkConnection();
  } catch (error) {
    // A wrong secret or base URL is the deploy's to fix: stop, and serve.ts prints it once, its
    // fix first. The service being down is not: serve anyway, the billing routes answer 502
    // until it is back.
    if (isDcbError(error, 'token_refused') || isDcbError(error, 'wrong_base_url')) throw error;
    logger.warn(
      { code: isDcbError(error) ? error.code : undefined },
      `dcbkit: the billing service cannot be reached now (${(error as Error).message}); the shop serves, and its billing routes answer 502 until it is back.`,
    );
  }
  const reconciler = startShopReconciler(kit, config.reconcileEveryMinutes);
  return {
    kit,
    checkoutBaseUrl: dcb.checkoutBaseUrl,
    sandbox: undefined,
    emulatorInProduction: false,
    description: `the service's ${dcb.client.environment} environment, entitlements in ${shopStore.description}`,
    reconciler,
    close: async () => {
      await reconciler.stop();
      await shopStore.close();
    },
  };
}
