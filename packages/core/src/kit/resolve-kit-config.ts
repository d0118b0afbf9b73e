import { keptHistoryOf } from '../apply/kept-history.js';
import { keptMetricsOf } from '../apply/record-facts.js';
import type { CreateClientOptions } from '../client/client-options.js';
import type { DcbClient } from '../client/create-client.js';
import { optionError } from '../errors/option-error.js';
import { refuseUnknownOptions } from '../errors/unknown-options.js';
import type { EventLedger } from '../ledger/event-ledger.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import { consoleLogger, type DcbLogger } from '../observability/logger.js';
import { defineOffers, isOffers, type Offers } from '../offers/define-offers.js';
import type { ReconcileOptions } from '../reconcile/reconcile-options.js';
import type { PartnerRoutesOptions } from '../routes/partner-route-types.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { HistoryStore } from '../store/history-store.js';
import { memoryStore } from '../store/memory-store.js';
import type { MetricsStore } from '../store/metrics-store.js';
import type { CreateWebhookHandlerOptions } from '../webhooks/webhook-handler-types.js';
import { deriveFormSecrets } from './form-secrets.js';
import { KIT_OPTIONS } from './kit-options.js';
import type { DcbKitConfig } from './kit-types.js';

/**
 * The kit's configuration resolved once: every default filled, every option checked, and each
 * part's options derived from it, so that the parts cannot disagree (one store, one offer list,
 * one account key, one logger, one clock, one answer to "is history recorded?").
 */
export interface ResolvedKitConfig<Store extends EntitlementStore> {
  readonly logger: DcbLogger;
  readonly offers: Offers;
  readonly store: Store;
  readonly ledger: EventLedger;
  readonly accountKeyField: string;
  /** The kit's clock: `config.now`, else the real time. */
  readonly now: () => Date;
  /** The store's history when the kit records one (the store keeps one, `history` is not false): decided here only. */
  readonly history: (Store & HistoryStore) | undefined;
  readonly historyRetentionMs: number;
  /** The store's metrics when the kit records them (the store keeps them, `metrics` is not false): decided here only. */
  readonly metrics: (Store & MetricsStore) | undefined;
  /** The client as given, or the options to make it with (the kit's logger and clock added). */
  readonly client: DcbClient | CreateClientOptions;
  /** The webhook handler's options, but for `confirm`, which needs the client. */
  readonly webhook: Omit<CreateWebhookHandlerOptions, 'confirm' | 'subscriptions' | 'payments'>;
  /** The partner routes' options but for the client and the grant; undefined without `returnUrl`. */
  readonly routes: Omit<PartnerRoutesOptions, 'client' | 'grantSucceededPayment'> | undefined;
  /** What every reconcile run of the kit passes, but for the client and the run's own options. */
  readonly reconcile: Omit<ReconcileOptions, 'client' | 'store'>;
}

/** Pure but for the defaults it makes (memoryStore, memoryLedger): throws the first wrong option. */
export function resolveKitConfig<Store extends EntitlementStore>(
  config: DcbKitConfig<Store>,
): ResolvedKitConfig<Store> {
  if (typeof config !== 'object' || config === null)
    throw optionError('createDcbKit', 'config', 'is required.');
  // A misspelt option (histroyRetentionDays) would otherwise be dropped and its default used.
  refuseUnknownOptions('createDcbKit', config, KIT_OPTIONS);
  const logger = config.logger ?? consoleLogger;
  const offers = isOffers(config.offers) ? config.offers : defineOffers(config.offers);
  // Without a store the kit's Store type is its default, which memoryStore() is.
  const store = config.store ?? (memoryStore() as EntitlementStore as Store);
  const ledger = config.ledger ?? memoryLedger();
  const accountKeyField = config.accountKeyField ?? 'accountKey';
  if (typeof accountKeyField !== 'string' || accountKeyField === '') {
    throw optionError('createDcbKit', 'accountKeyField', 'must be a non-empty metadata field name.');
  }
  const history = keptHistoryOf(store, config.history);
  const metrics = keptMetricsOf(store, config.metrics);
  const shared = {
    store,
    offers,
    accountKeyField,
    logger,
    history: history !== undefined,
    metrics: metrics !== undefined,
  };
  const given = definedOf({ on: config.on, onError: config.onError });
  return {
    logger,
    offers,
    store,
    ledger,
    accountKeyField,
    now: config.now ?? (() => new Date()),
    history,
    historyRetentionMs: retentionMsOf(config.historyRetentionDays),
    metrics,
    client: isClient(config.client)
      ? config.client
      : { logger, ...definedOf({ now: config.now }), ...config.client },
    webhook: {
      ...shared,
      ...given,
      secrets: config.webhookSecrets,
      ledger,
      ...definedOf({
        toleranceSeconds: config.toleranceSeconds,
        maxBodyBytes: config.maxBodyBytes,
        timeoutMs: config.timeoutMs,
        linePolicy: config.linePolicy,
      }),
    },
    routes: config.returnUrl === undefined ? undefined : routesOptionsOf(config, shared, config.returnUrl),
    reconcile: { ...shared, ...definedOf({ on: config.on, now: config.now }) },
  };
}

function routesOptionsOf<Store extends EntitlementStore>(
  config: DcbKitConfig<Store>,
  shared: Pick<
    PartnerRoutesOptions,
    'store' | 'offers' | 'accountKeyField' | 'logger' | 'history' | 'metrics'
  >,
  returnUrl: string,
): Omit<PartnerRoutesOptions, 'client' | 'grantSucceededPayment'> {
  return {
    ...shared,
    returnUrl,
    formSecret: config.formSecret ?? deriveFormSecrets(config.webhookSecrets),
    ...definedOf({
      formTokenMaxAgeMs: config.formTokenMaxAgeMs,
      checkoutBaseUrl: config.checkoutBaseUrl,
      prefill: config.prefill,
      onError: config.onError,
      allowedOrigins: config.allowedOrigins,
      now: config.now,
    }),
  };
}

export function isClient(value: DcbClient | CreateClientOptions): value is DcbClient {
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
function definedOf<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
