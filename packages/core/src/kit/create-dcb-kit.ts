import { applyPaymentRead } from '../apply/apply-payment-read.js';
import { historyRecorder } from '../apply/history-entry.js';
import type { PendingPaymentKeeper } from '../apply/pending-payments.js';
import { factRecorder } from '../apply/record-facts.js';
import { createClient } from '../client/create-client.js';
import { optionError } from '../errors/option-error.js';
import { createErrorReporter } from '../observability/error-reporter.js';
import { createPartnerRoutes } from '../routes/partner-routes.js';
import type { Payment } from '../schemas/payment.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { createWebhookHandler } from '../webhooks/create-webhook-handler.js';
import { accountViews } from './account-views.js';
import { explainAccess } from './explain.js';
import { explainLine } from './explain-line.js';
import { lifecycleViews } from './kit-lifecycle-views.js';
import { checkoutFunnelOf, metricsOf } from './kit-metrics.js';
import { kitReconcilers } from './kit-reconcile.js';
import type { DcbKit, DcbKitConfig, DefaultStore } from './kit-types.js';
import { checkReadiness } from './readiness.js';
import { isClient, resolveKitConfig } from './resolve-kit-config.js';

// The kit's types stay importable from here, where createDcbKit is.
export type { DcbKit, DcbKitConfig, DefaultStore } from './kit-types.js';

/**
 * The front door: one configuration in, the client, the webhook handler and the partner routes
 * out, sharing one store, one offer list, one account key and one logger.
 *
 * @example
 * const kit = createDcbKit({
 *   ...configFromEnv(process.env),
 *   offers: [{ offerUid: 'off_monthly', productUid: 'prod_premium', name: 'Premium', type: 'SUBSCRIPTION',
 *     price: { amount: 4500, currency: 'TND' }, billingPeriod: { unit: 'MONTH', count: 1 } }],
 *   returnUrl: 'https://shop.example/billing/return',
 * });
 * await kit.checkConnection();
 */
export function createDcbKit<Store extends EntitlementStore = DefaultStore>(
  config: DcbKitConfig<Store>,
): DcbKit<Store> {
  const resolved = resolveKitConfig(config);
  const { logger, offers, store, ledger, now, history, metrics } = resolved;
  const client = isClient(resolved.client) ? resolved.client : createClient(resolved.client);
  const webhook = createWebhookHandler({
    ...resolved.webhook,
    subscriptions: client.subscriptions,
    payments: client.payments,
    confirm: (event) =>
      event.subscriptionUid === undefined
        ? Promise.resolve(undefined)
        : client.subscriptions.retrieve(event.subscriptionUid),
  });
  const recordHistory = historyRecorder(history);
  const recordFacts = factRecorder(metrics);
  const grantFromPayment = (payment: Payment) =>
    applyPaymentRead(payment, {
      store,
      offers,
      accountKeyField: resolved.accountKeyField,
      on: { accessGranted: config.on?.accessGranted },
      readSubscription: (subscriptionUid) => client.subscriptions.retrieve(subscriptionUid),
      recordHistory,
      recordFacts,
      now,
    });
  // Made at once, so a return URL that is not an absolute http(s) URL is refused here, with the
  // other options, rather than when the routes are first used.
  const routes =
    resolved.routes &&
    createPartnerRoutes({ ...resolved.routes, client, grantSucceededPayment: grantFromPayment });
  const reportError = createErrorReporter(logger, config.onError);
  const kit: DcbKit<Store> = {
    client,
    webhook,
    get routes() {
      if (routes === undefined) {
        throw optionError(
          'createDcbKit',
          'returnUrl',
          'is needed for the partner routes: the absolute URL of your return page.',
        );
      }
      return routes;
    },
    store,
    ledger,
    offers,
    logger,
    grantFromPayment,
    now,
    ...accountViews(store as Store & PendingPaymentKeeper, offers, now),
    async checkConnection() {
      try {
        await client.checkConnection();
      } catch (error) {
        const message = `dcbkit: the billing service cannot be used: ${(error as Error).message}`;
        reportError(error, { source: 'startup' }, message);
        throw error;
      }
    },
    ...kitReconcilers(resolved, client),
    explain: (accountKey, options) => explainAccess({ store, client, offers, now }, accountKey, options),
    explainLine: (subscriberUid, options) =>
      explainLine({ store, client, offers, now }, subscriberUid, options),
    webhookHealth: () => webhook.health(),
    checkReadiness: () => checkReadiness(store, client),
    metrics: (query) => metricsOf(metrics, offers, query),
    checkoutFunnel: (query) => checkoutFunnelOf(metrics, offers, query),
    ...lifecycleViews(metrics, offers, now),
  };
  return Object.freeze(kit);
}
