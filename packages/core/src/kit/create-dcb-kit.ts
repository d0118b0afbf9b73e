import { hkdfSync } from 'node:crypto';
import { isStillOpen, type OfferStanding, offerStandings } from '../access/offer-standing.js';
import { type GrantResult, grantFromPayment } from '../apply/grant-from-payment.js';
import { historyRecorder } from '../apply/history-entry.js';
import type { WebhookListeners } from '../apply/listeners.js';
import type { PendingPaymentKeeper } from '../apply/record-pending-payment.js';
import type { CreateClientOptions } from '../client/client-options.js';
import { createClient, type DcbClient } from '../client/create-client.js';
import { optionError } from '../errors/option-error.js';
import type { EventLedger } from '../ledger/event-ledger.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import { createErrorReporter, type ErrorHook } from '../observability/error-reporter.js';
import { consoleLogger, type DcbLogger } from '../observability/logger.js';
import { defineOffers, isOffers, type Offers } from '../offers/define-offers.js';
import { reconcile } from '../reconcile/reconcile.js';
import { type ReconcileRunOptions, requireReconcileStore } from '../reconcile/reconcile-options.js';
import type { ReconcileReport } from '../reconcile/reconcile-report.js';
import {
  type Reconciler,
  type StartReconcilerOptions,
  startReconciler,
} from '../reconcile/start-reconciler.js';
import {
  createPartnerRoutes,
  type PartnerRoutes,
  type PartnerRoutesOptions,
} from '../routes/partner-routes.js';
import type { OfferDefinitionInput } from '../schemas/offer.js';
import type { Payment } from '../schemas/payment.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { type HistoryStore, isHistoryStore } from '../store/history-store.js';
import { memoryStore } from '../store/memory-store.js';
import type { PendingPayment, ReconcileStore } from '../store/reconcile-store.js';
import { createWebhookHandler, type WebhookHandler } from '../webhooks/create-webhook-handler.js';
import type { WebhookHealth } from '../webhooks/webhook-health.js';
import { type AccessExplanation, type ExplainOptions, explainAccess } from './explain.js';
import { checkReadiness, type Readiness } from './readiness.js';

/** What the kit's store is when you pass none: memoryStore(), which keeps reconciliation's bookkeeping and history too. */
export type DefaultStore = EntitlementStore & ReconcileStore & HistoryStore;

export interface DcbKitConfig<Store extends EntitlementStore = DefaultStore> {
  /** The API client, or its options (`configFromEnv(process.env).client`). */
  client: DcbClient | CreateClientOptions;
  /** The environment's webhook signing secret, or several while rotating. */
  webhookSecrets: string | readonly string[];
  /** Your offers, as in the console: they say what each offer grants and what your pages show. */
  offers: Offers | readonly OfferDefinitionInput[];
  /** Where entitlements live. Default: memoryStore() (per process, lost on restart). */
  store?: Store;
  /** Which events were processed. Default: memoryLedger() (per process). */
  ledger?: EventLedger;
  /**
   * The payment metadata field that carries your user id. The routes write it at checkout and
   * the webhook handler reads it, so the two can never disagree. Default `accountKey`.
   */
  accountKeyField?: string;
  /** Absolute URL of your return page. Needed for the partner routes (`kit.routes`). */
  returnUrl?: string;
  /** Numbers to prefill on checkout for an account (never a substitute for consent). */
  prefill?: PartnerRoutesOptions['prefill'];
  /**
   * Origins whose pages may post to checkout, cancel and resume. Default: the origin of `returnUrl`;
   * needed with an app deep link as `returnUrl` (`myapp://done`), which has no web origin.
   */
  allowedOrigins?: readonly string[];
  /**
   * The key of the form tokens (`DCB_FORM_SECRET`), or several while rotating it: the first makes
   * new tokens, any verifies. Default: derived from the webhook secrets, so every instance shares
   * it without one more variable; set it to keep forms valid across a webhook secret rotation.
   */
  formSecret?: string | readonly string[];
  /** How long a rendered form may be posted. Default 12 hours. */
  formTokenMaxAgeMs?: number;
  /**
   * The environment's checkout host (`DCB_CHECKOUT_BASE_URL`): a checkout URL from the service on
   * any other host is refused. Without it, any https host with the spec's `/c/{paymentUid}` path.
   */
  checkoutBaseUrl?: string;
  /** Your listeners: per event name, and for access granted or revoked. At least once: make them idempotent. */
  on?: WebhookListeners;
  /** One logger for every part. pino plugs in as it is. Default: warnings and errors on the console. */
  logger?: DcbLogger;
  /** Your error tracker: receives the Error whenever the webhook answers 5xx or a route fails. */
  onError?: ErrorHook;
  /** Webhook signature tolerance in seconds (1 to 3600). Default 300. */
  toleranceSeconds?: number;
  /** Largest webhook body accepted. Default 1 MiB. */
  maxBodyBytes?: number;
  /** How long the store, ledger and listeners may take per delivery. Default 10 000 ms. */
  timeoutMs?: number;
  /**
   * Record every decision (webhook, return page, reconciliation, cancel and resume, a spent unit)
   * in the store's history, when the store keeps one (memoryStore and the SQL stores do). Default true.
   */
  history?: boolean;
  /** How long history is kept: the running reconciler prunes older entries after each run. Default 90 days. */
  historyRetentionDays?: number;
  /**
   * The clock of the client and the routes' access checks, for tests that move the sandbox's
   * clock. Webhook signatures are always checked against the real time, as the service signs them.
   */
  now?: () => Date;
}

/** Everything a partner app mounts, made from one configuration. */
export interface DcbKit<Store extends EntitlementStore = DefaultStore> {
  readonly client: DcbClient;
  /** The webhook handler: hand it to createExpressWebhook / createKoaWebhook, or call it yourself. */
  readonly webhook: WebhookHandler;
  /** Checkout, return, cancel, resume and the access check (needs `returnUrl`). */
  readonly routes: PartnerRoutes;
  readonly store: Store;
  readonly ledger: EventLedger;
  readonly offers: Offers;
  readonly logger: DcbLogger;
  /** The kit's clock (`config.now`, else the real time): read it where a page decides by time. */
  now(): Date;
  /**
   * What the account may do with each listed offer now (buy, subscribe with or without the trial,
   * owned, subscribed with its actions, a checkout to continue), by offerUid: render the offers
   * page from it, as the checkout route decides by the same rule.
   */
  offerStandings(accountKey: string): Promise<ReadonlyMap<string, OfferStanding>>;
  /**
   * The account's payments still open (started, not expired, not settled), oldest uid first: list
   * them on the account page with "continue" (`checkoutUrl`) and "cancel" (the cancelPayment route).
   * Empty with a store that keeps no pending payments.
   */
  pendingPayments(accountKey: string): Promise<PendingPayment[]>;
  /** Applies a payment read server-side (what the return page does), with the kit's store and listeners. */
  grantFromPayment(payment: Payment): Promise<GrantResult>;
  /**
   * Gets an access token now and logs the failure with its fix: call it at startup so a wrong
   * secret, base URL or a stopped service is known before the first subscriber meets it.
   */
  checkConnection(): Promise<void>;
  /**
   * Recovers entitlements whose webhooks were missed, with server-side reads, through the same
   * rules as the webhooks; your accessGranted / accessRevoked listeners run with
   * `source: 'reconciliation'`. Call it from your scheduler (docs/reconcile.md).
   */
  reconcile(options?: ReconcileRunOptions): Promise<ReconcileReport>;
  /**
   * Opt-in: runs `reconcile` at once, then every `everyMs`, on one instance at a time when several
   * share the store (its `tryLock`). Stop it with the returned `stop()` or `signal`.
   */
  startReconciler(options: StartReconcilerOptions): Reconciler;
  /**
   * "Why has this customer (no) access?": each product's entitlement, the reason access is on or
   * off, the history that made it, the open checkouts, and with `read: true` the service's own
   * view of each subscription with a drift flag.
   */
  explain(accountKey: string, options?: ExplainOptions): Promise<AccessExplanation>;
  /** The webhook receiver's counts since start: accepted, duplicate, refused and failed by code, the last accepted time. */
  webhookHealth(): WebhookHealth;
  /** For a readiness probe: the store answers a read and an access token can be obtained, each within 5 s. */
  checkReadiness(): Promise<Readiness>;
}

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
  if (typeof config !== 'object' || config === null)
    throw optionError('createDcbKit', 'config', 'is required.');
  const logger = config.logger ?? consoleLogger;
  const reportError = createErrorReporter(logger, config.onError);
  const client = isClient(config.client)
    ? config.client
    : createClient({ logger, ...optional({ now: config.now }), ...config.client });
  const offers = isOffers(config.offers) ? config.offers : defineOffers(config.offers);
  // Without a store the kit's Store type is its default, which memoryStore() is.
  const store = config.store ?? (memoryStore() as EntitlementStore as Store);
  const ledger = config.ledger ?? memoryLedger();
  const accountKeyField = config.accountKeyField ?? 'accountKey';
  if (typeof accountKeyField !== 'string' || accountKeyField === '') {
    throw optionError('createDcbKit', 'accountKeyField', 'must be a non-empty metadata field name.');
  }
  const webhook = createWebhookHandler({
    secrets: config.webhookSecrets,
    store,
    ledger,
    offers,
    accountKeyField,
    logger,
    ...optional({ history: config.history }),
    confirm: (event) =>
      event.subscriptionUid === undefined
        ? Promise.resolve(undefined)
        : client.subscriptions.retrieve(event.subscriptionUid),
    ...optional({
      on: config.on,
      onError: config.onError,
      toleranceSeconds: config.toleranceSeconds,
      maxBodyBytes: config.maxBodyBytes,
      timeoutMs: config.timeoutMs,
    }),
  });
  const now = config.now ?? (() => new Date());
  const keepsHistory = config.history !== false && isHistoryStore(store);
  const recordHistory = historyRecorder(keepsHistory ? store : undefined);
  const historyRetentionMs = retentionMsOf(config.historyRetentionDays);
  const grant = (payment: Payment) =>
    grantFromPayment(payment, {
      store,
      offers,
      accountKeyField,
      on: { accessGranted: config.on?.accessGranted },
      readSubscription: (subscriptionUid) => client.subscriptions.retrieve(subscriptionUid),
      recordHistory,
    });
  const reconcileWithKit = (options: ReconcileRunOptions = {}) => {
    requireReconcileStore(store, 'kit.reconcile');
    return reconcile({
      ...options,
      client,
      store,
      offers,
      accountKeyField,
      logger,
      ...optional({ on: config.on, now: config.now, history: config.history }),
    });
  };
  /** One reconcile run, then the history older than the retention pruned (under the same lock). */
  const reconcileAndPrune = async (options: ReconcileRunOptions) => {
    const report = await reconcileWithKit(options);
    if (keepsHistory && !options.dryRun) {
      const removed = await store.pruneHistory(new Date(Date.now() - historyRetentionMs));
      if (removed > 0) logger.debug?.({ removed }, 'dcbkit: pruned history past its retention');
    }
    return report;
  };
  const keeper = store as EntitlementStore & PendingPaymentKeeper;
  const pendingOf = async (accountKey: string): Promise<PendingPayment[]> =>
    (await keeper.listPendingPaymentsOfAccount?.(accountKey)) ?? [];
  // Made at once, so a return URL that is not an absolute http(s) URL is refused here, with the
  // other options, rather than when the routes are first used.
  const routes =
    config.returnUrl === undefined
      ? undefined
      : createPartnerRoutes({
          client,
          store,
          offers,
          grantFromPayment: grant,
          returnUrl: config.returnUrl,
          accountKeyField,
          logger,
          formSecret: config.formSecret ?? deriveFormSecrets(config.webhookSecrets),
          ...optional({
            formTokenMaxAgeMs: config.formTokenMaxAgeMs,
            checkoutBaseUrl: config.checkoutBaseUrl,
            prefill: config.prefill,
            onError: config.onError,
            allowedOrigins: config.allowedOrigins,
            now: config.now,
            history: config.history,
          }),
        });
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
    grantFromPayment: grant,
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
        reportError(
          error,
          { source: 'startup' },
          `dcbkit: the billing service cannot be used: ${(error as Error).message}`,
        );
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

function isClient(value: DcbClient | CreateClientOptions): value is DcbClient {
  return (
    typeof (value as DcbClient).payments === 'object' &&
    typeof (value as DcbClient).checkConnection === 'function'
  );
}

const DAY_MS = 24 * 60 * 60 * 1000;

function retentionMsOf(days: number | undefined): number {
  if (days === undefined) return 90 * DAY_MS;
  if (!(typeof days === 'number' && days > 0 && Number.isFinite(days))) {
    throw optionError('createDcbKit', 'historyRetentionDays', 'must be a number of days > 0.');
  }
  return days * DAY_MS;
}

/** The entries whose value is defined (exactOptionalPropertyTypes-friendly spreading). */
function optional<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * Keys for form tokens that every instance of the app computes alike without one more secret to
 * configure: HKDF of each webhook secret, under its own label, so neither key reveals the other.
 * Any verifies; the LAST makes new tokens: during a rotation (`new,old`) that is the old secret,
 * which the instances not yet redeployed hold too, so old and new instances accept each other's
 * forms. Forms rendered before the deploy that drops the old secret must be reloaded once;
 * `DCB_FORM_SECRET` avoids even that.
 */
function deriveFormSecrets(webhookSecrets: string | readonly string[]): string[] {
  const secrets = [webhookSecrets].flat();
  return [...secrets]
    .reverse()
    .map((secret) =>
      Buffer.from(hkdfSync('sha256', secret, 'dcbkit', 'dcbkit form tokens', 32)).toString('base64url'),
    );
}
