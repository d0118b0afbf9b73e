import { isStillOpen, offerStandings } from '../access/offer-standing.js';
import { applyPaymentRead } from '../apply/apply-payment-read.js';
import { historyRecorder } from '../apply/history-entry.js';
import type { PendingPaymentKeeper } from '../apply/pending-payments.js';
import { createClient } from '../client/create-client.js';
import { optionError } from '../errors/option-error.js';
import { createErrorReporter } from '../observability/error-reporter.js';
import { reconcile } from '../reconcile/reconcile.js';
import { type ReconcileRunOptions, requireReconcileStore } from '../reconcile/reconcile-options.js';
import { startReconciler } from '../reconcile/start-reconciler.js';
import { createPartnerRoutes } from '../routes/partner-routes.js';
import type { Payment } from '../schemas/payment.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { PendingPayment } from '../store/reconcile-store.js';
import { createWebhookHandler } from '../webhooks/create-webhook-handler.js';
import { explainAccess } from './explain.js';
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
  const { logger, offers, store, ledger, now, history } = resolved;
  const client = isClient(resolved.client) ? resolved.client : createClient(resolved.client);
  const webhook = createWebhookHandler({
    ...resolved.webhook,
    confirm: (event) =>
      event.subscriptionUid === undefined
        ? Promise.resolve(undefined)
        : client.subscriptions.retrieve(event.subscriptionUid),
  });
  const recordHistory = historyRecorder(history);
  const grantFromPayment = (payment: Payment) =>
    applyPaymentRead(payment, {
      store,
      offers,
      accountKeyField: resolved.accountKeyField,
      on: { accessGranted: config.on?.accessGranted },
      readSubscription: (subscriptionUid) => client.subscriptions.retrieve(subscriptionUid),
      recordHistory,
    });
  const reconcileWithKit = (options: ReconcileRunOptions = {}) => {
    requireReconcileStore(store, 'kit.reconcile');
    return reconcile({ ...options, ...resolved.reconcile, client, store });
  };
  /** One reconcile run, then the history older than the retention pruned (under the same lock). */
  const reconcileAndPrune = async (options: ReconcileRunOptions) => {
    const report = await reconcileWithKit(options);
    if (history !== undefined && !options.dryRun) {
      const removed = await history.pruneHistory(new Date(Date.now() - resolved.historyRetentionMs));
      if (removed > 0) logger.debug?.({ removed }, 'dcbkit: pruned history past its retention');
    }
    return report;
  };
  const pendingOf = async (accountKey: string): Promise<PendingPayment[]> =>
    (await (store as PendingPaymentKeeper).listPendingPaymentsOfAccount?.(accountKey)) ?? [];
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
    async offerStandings(accountKey) {
      const [entitlements, openCheckouts] = await Promise.all([
        store.listByAccount(accountKey),
        pendingOf(accountKey),
      ]);
      return offerStandings({
        offers: offers.listed,
        entitlements,
        openCheckouts,
        offerOf: offers.get,
        now: now(),
      });
    },
    async pendingPayments(accountKey) {
      const at = now();
      return (await pendingOf(accountKey)).filter((payment) => isStillOpen(payment, at));
    },
    async checkConnection() {
      try {
        await client.checkConnection();
      } catch (error) {
        const message = `dcbkit: the billing service cannot be used: ${(error as Error).message}`;
        reportError(error, { source: 'startup' }, message);
        throw error;
      }
    },
    reconcile: reconcileWithKit,
    startReconciler(options) {
      requireReconcileStore(store, 'kit.startReconciler');
      return startReconciler(reconcileAndPrune, store, logger, options);
    },
    explain: (accountKey, options) => explainAccess({ store, client, offers, now }, accountKey, options),
    webhookHealth: () => webhook.health(),
    checkReadiness: () => checkReadiness(store, client),
  };
  return Object.freeze(kit);
}
