import type { OfferStanding } from '../access/offer-standing.js';
import type { GrantResult } from '../apply/apply-payment-read.js';
import type { WebhookListeners } from '../apply/listeners.js';
import type { CreateClientOptions } from '../client/client-options.js';
import type { DcbClient } from '../client/create-client.js';
import type { EventLedger } from '../ledger/event-ledger.js';
import type { CheckoutFunnelReport } from '../metrics/checkout-funnel.js';
import type { MetricsQuery } from '../metrics/metrics-query.js';
import type { MetricsReport } from '../metrics/metrics-report.js';
import type { ErrorHook } from '../observability/error-reporter.js';
import type { DcbLogger } from '../observability/logger.js';
import type { Offers } from '../offers/define-offers.js';
import type { ReconcileRunOptions } from '../reconcile/reconcile-options.js';
import type { ReconcileReport } from '../reconcile/reconcile-report.js';
import type { Reconciler, StartReconcilerOptions } from '../reconcile/start-reconciler.js';
import type { PartnerRoutes, PartnerRoutesOptions } from '../routes/partner-route-types.js';
import type { LinePolicy } from '../schemas/line-pays-twice.js';
import type { OfferDefinitionInput } from '../schemas/offer.js';
import type { Payment } from '../schemas/payment.js';
import type { CheckoutRecord, CheckoutRecordQuery } from '../store/checkout-record.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { HistoryStore } from '../store/history-store.js';
import type { EndedPayment, PendingPayment, ReconcileStore } from '../store/reconcile-store.js';
import type { WebhookHandler } from '../webhooks/webhook-handler-types.js';
import type { WebhookHealth } from '../webhooks/webhook-health.js';
import type { AccessExplanation, ExplainOptions } from './explain.js';
import type { ExplainLineOptions, LineExplanation } from './explain-line.js';
import type { LifecycleViews } from './kit-lifecycle-views.js';
import type { Readiness } from './readiness.js';

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
   * any other host is refused, and its payment cancelled. Required for the routes in production;
   * on the sandbox environment, without it, any https host with the spec's `/c/{paymentUid}` path.
   */
  checkoutBaseUrl?: string;
  /** Your listeners: per event name, and for access granted or revoked. At least once: make them idempotent. */
  on?: WebhookListeners;
  /**
   * When one phone line pays twice for a product (two accounts, one line): `report` (default, both
   * keep access; recorded, logged, `onError` and `on.linePaysTwice`) or `cancel-newer` (the newer
   * subscription is also cancelled at period end, so the line is never charged a second renewal).
   * docs/entitlements.md#one-line-two-accounts.
   */
  linePolicy?: LinePolicy;
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
  /**
   * How long history, and the checkouts that ended (`endedPayments`, `checkoutRecord`), are kept:
   * the running reconciler prunes older ones after each run. Default 90 days.
   */
  historyRetentionDays?: number;
  /**
   * Record the business view's facts (trials, renewals, grace, churn, sales and money, by the day
   * they happened) in the store, when the store keeps them (memoryStore and the SQL stores do), for
   * `kit.metrics`. They are daily totals, kept past the history's pruning. Default true.
   */
  metrics?: boolean;
  /**
   * The clock of the client and the routes' access checks, for tests that move the sandbox's
   * clock. Webhook signatures are always checked against the real time, as the service signs them.
   */
  now?: () => Date;
}

/** Everything a partner app mounts, made from one configuration. */
export interface DcbKit<Store extends EntitlementStore = DefaultStore> extends LifecycleViews {
  readonly client: DcbClient;
  /** The webhook handler: hand it to your framework's adapter (createExpressWebhook, createKoaWebhook…), or call it yourself. */
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
  /**
   * The account's checkouts that did not finish (failed, cancelled, expired), newest first, each
   * with `ended`: its status, the service's `failureCode` when a read gave one, and when. Show
   * them on the account page with their reason. Empty with a store that keeps no pending payments;
   * a store without `endPendingPayment` lists only those past their expiry.
   */
  endedPayments(accountKey: string): Promise<EndedPayment[]>;
  /**
   * For a complaint: every checkout of the accounts (or only the payments) asked for, in the order
   * they started, each with what the shop showed before consent (`shown`: name, price, period,
   * language, when) and how it ended. A line's record is the record of its accounts. Complete with a
   * store that keeps ended payments (`endPendingPayment`); otherwise the open ones only. Those that
   * ended more than `historyRetentionDays` ago are pruned by the running reconciler and missing.
   */
  checkoutRecord(query: CheckoutRecordQuery): Promise<CheckoutRecord>;
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
  /**
   * "Who holds what on this phone line?": the accounts with an entitlement on the line
   * (`subscriberUid`), their products and access, and `paysTwice`, the products the line holds
   * live subscriptions of under several accounts. With `read: true`, the service's view of each
   * live subscription. Needs a store that answers by line (`linesKept` is false otherwise).
   */
  explainLine(subscriberUid: string, options?: ExplainLineOptions): Promise<LineExplanation>;
  /** The webhook receiver's counts since start: accepted, duplicate, refused and failed by code, the last accepted time. */
  webhookHealth(): WebhookHealth;
  /** For a readiness probe: the store answers a read and an access token can be obtained, each within 5 s. */
  checkReadiness(): Promise<Readiness>;
  /**
   * The business at a glance: per bucket (UTC day, week from Monday, or month) and offer, the live
   * subscribers at the bucket's end, trials started and converted, new subscriptions, renewals
   * collected and failed, recoveries from grace, churn by cause, units and unlocks sold, units
   * spent and the money collected, each fact counted once by when it happened. Needs a store that
   * keeps metrics (an `invalid_option` naming the store otherwise). docs/operations.md says what each number means.
   *
   * @example
   * const { rows } = await kit.metrics({ from: new Date('2030-01-01'), to: new Date('2031-01-01'), interval: 'month' });
   */
  metrics(query: MetricsQuery): Promise<MetricsReport>;
  /**
   * The checkout funnel: per bucket and offer, the payments the partner routes created (`started`)
   * and how they ended: `succeeded`, `refused` and `failed` by the service's code, `expired`,
   * `canceled`, and `pending` (not ended yet). A checkout counts once, in the bucket it started,
   * whenever it ended. Needs a store that keeps metrics, as `kit.metrics` does; docs/operations.md
   * says which code goes where.
   *
   * @example
   * const { rows } = await kit.checkoutFunnel({ from: new Date('2030-01-01'), to: new Date('2030-02-01'), interval: 'week' });
   */
  checkoutFunnel(query: MetricsQuery): Promise<CheckoutFunnelReport>;
}
