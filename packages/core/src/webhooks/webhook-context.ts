import { accountKeyResolver } from '../apply/account-key.js';
import type { ApplyContext } from '../apply/apply-event.js';
import { historyRecorder, type RecordHistory } from '../apply/history-entry.js';
import { keptHistoryOf } from '../apply/kept-history.js';
import type { WebhookListeners } from '../apply/listeners.js';
import { factRecorder, keptMetricsOf, type RecordFacts } from '../apply/record-facts.js';
import type { SubscriptionsApi } from '../client/subscriptions.js';
import { type OptionNames, refuseUnknownOptions } from '../errors/unknown-options.js';
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from '../http/limits.js';
import { eventKey as defaultEventKey } from '../ledger/event-key.js';
import type { EventLedger } from '../ledger/event-ledger.js';
import { type BusinessCounters, createBusinessCounters } from '../metrics/business-counters.js';
import type { MetricEntry } from '../metrics/metric-entry.js';
import { createErrorReporter, type ReportError } from '../observability/error-reporter.js';
import { createLogLimit } from '../observability/log-limit.js';
import { consoleLogger, type DcbLogger } from '../observability/logger.js';
import { defineOffers, isOffers } from '../offers/define-offers.js';
import type { LinePolicy } from '../schemas/line-pays-twice.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { isOnceStore, type OnceStore } from '../store/once-store.js';
import { type CountedAnswers, countedAnswers } from './counted-answers.js';
import { createDeadlines } from './deadlines.js';
import { findNodeCrypto } from './node-crypto.js';
import type { VerifyWebhookOptions } from './verify-checks.js';
import { checkTolerance, verifyWebhook } from './verify-webhook.js';
import type { CreateWebhookHandlerOptions } from './webhook-handler-types.js';
import { createWebhookHealth, type WebhookHealthRecorder } from './webhook-health.js';
import { checkWebhookOptions, WHERE } from './webhook-options.js';

/** How long the store, the ledger and your listeners may take for one delivery, by default. */
export const DEFAULT_PROCESSING_TIMEOUT_MS = 10_000;

/** What every step of a delivery works with: the options resolved once, when the handler is made. */
export interface WebhookContext {
  readonly secrets: string | readonly string[];
  readonly store: CreateWebhookHandlerOptions['store'];
  readonly ledger: EventLedger;
  readonly on: WebhookListeners;
  readonly eventKey: (event: WebhookEvent) => string;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly timeoutMs: number;
  readonly toleranceSeconds: number;
  readonly logger: DcbLogger;
  readonly now: () => Date;
  readonly reportError: ReportError;
  /** True at most once a minute per key: what a log line repeated by every delivery is asked. */
  readonly logLimit: (key: string) => boolean;
  /** One deadline for the claim and the processing of a delivery. */
  readonly withDeadline: ReturnType<typeof createDeadlines>;
  readonly apply: ApplyContext;
  readonly recordHistory: RecordHistory | undefined;
  /** The business view's facts of each decision, to the store when it keeps them, and the counters. */
  readonly recordFacts: RecordFacts | undefined;
  /** Whether the facts go to the store (recordFacts may count them only). */
  readonly keepsMetrics: boolean;
  /** The store's one-transaction path, taken when its ledger is the handler's (store/once-store.ts). */
  readonly once: OnceStore<CreateWebhookHandlerOptions['store']> | undefined;
  readonly counters: BusinessCounters;
  readonly health: WebhookHealthRecorder;
  readonly answers: CountedAnswers;
  /** What a line that pays twice gets (see line-check.ts). */
  readonly line: LineCheckOptions;
  /** Node's synchronous verification, where the runtime has node's crypto; else Web Crypto's is used. */
  readonly verifyNow: ((verify: VerifyWebhookOptions) => WebhookEvent) | undefined;
  /** The API's payments, to read a failed checkout's code for the funnel (createDcbKit wires its client). */
  readonly payments: CreateWebhookHandlerOptions['payments'];
}

/** The line check's options of the handler, resolved. */
export interface LineCheckOptions {
  readonly policy: LinePolicy;
  /** The API's subscriptions, for `cancel-newer` (createDcbKit wires its client). */
  readonly subscriptions: Pick<SubscriptionsApi, 'cancel' | 'retrieve'> | undefined;
}

/** What a delivery in a transaction defers until the commit: its facts and payments to count. */
export interface DeferredUntilCommit {
  facts: MetricEntry[];
  payments: ['succeeded' | 'failed', string | undefined][];
}

/**
 * The context of one delivery whose writes go to `tx` (the store bound to the event's
 * transaction), recording history as the handler's context does. Its facts and the payments it
 * would count are put in `deferred`: the facts are written with the transaction's last statement
 * (OnceWork.facts), and both are counted after the commit, so that a rolled-back attempt counts
 * nothing.
 */
export function boundTo(
  context: WebhookContext,
  tx: WebhookContext['store'],
  deferred: DeferredUntilCommit,
): WebhookContext {
  return {
    ...context,
    store: tx,
    apply: { ...context.apply, store: tx },
    recordHistory: context.recordHistory && historyRecorder(keptHistoryOf(tx, true)),
    recordFacts:
      context.recordFacts &&
      (async (entries) => {
        deferred.facts.push(...entries);
      }),
    counters: deferringPayments(context.counters, deferred),
  };
}

/** The counters with their payment count put in `deferred`, to be counted once what counted it is kept. */
export function deferringPayments(
  counters: WebhookContext['counters'],
  deferred: Pick<DeferredUntilCommit, 'payments'>,
): WebhookContext['counters'] {
  if (!counters.enabled) return counters;
  return {
    ...counters,
    payment: (status, offerUid) => {
      deferred.payments.push([status, offerUid]);
    },
  };
}

/** Every option createWebhookHandler takes: the compiler holds this list to CreateWebhookHandlerOptions. */
const WEBHOOK_HANDLER_OPTIONS: OptionNames<CreateWebhookHandlerOptions> = {
  secrets: true,
  store: true,
  ledger: true,
  offers: true,
  on: true,
  eventKey: true,
  maxBodyBytes: true,
  bodyTimeoutMs: true,
  toleranceSeconds: true,
  timeoutMs: true,
  confirm: true,
  linePolicy: true,
  subscriptions: true,
  payments: true,
  logger: true,
  onError: true,
  history: true,
  metrics: true,
  now: true,
  accountKeyField: true,
  accountKeyOfEvent: true,
};

/** The handler's context from its options, checked (a wrong option throws here, at startup). */
export function webhookContextOf(options: CreateWebhookHandlerOptions): WebhookContext {
  refuseUnknownOptions('createWebhookHandler', options, WEBHOOK_HANDLER_OPTIONS);
  checkWebhookOptions(options);
  const toleranceSeconds = checkTolerance(options.toleranceSeconds, WHERE);
  const { store, confirm } = options;
  const logger = options.logger ?? consoleLogger;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
  const offers = isOffers(options.offers) ? options.offers : defineOffers(options.offers);
  const health = createWebhookHealth(options.now);
  const counters = createBusinessCounters();
  const keptMetrics = keptMetricsOf(store, options.metrics);
  return {
    secrets: options.secrets,
    store,
    ledger: options.ledger,
    on: options.on ?? {},
    eventKey: options.eventKey ?? defaultEventKey,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    timeoutMs,
    toleranceSeconds,
    logger,
    now: options.now ?? (() => new Date()),
    reportError: createErrorReporter(logger, options.onError),
    logLimit: createLogLimit(),
    withDeadline: createDeadlines(timeoutMs),
    apply: { store, offers, accountKeyOf: accountKeyResolver(options), ...(confirm ? { confirm } : {}) },
    recordHistory: historyRecorder(keptHistoryOf(store, options.history)),
    recordFacts: factRecorder(keptMetrics, counters),
    keepsMetrics: keptMetrics !== undefined,
    once:
      isOnceStore<CreateWebhookHandlerOptions['store']>(store) && store.onceLedger === options.ledger
        ? store
        : undefined,
    counters,
    health,
    answers: countedAnswers(health),
    line: { policy: options.linePolicy ?? 'report', subscriptions: options.subscriptions },
    payments: options.payments,
    // Chosen once: the synchronous verification on node's crypto wherever the runtime has it (Node,
    // Bun, Deno, workerd with nodejs_compat), at no cost over calling it directly; Web Crypto, async,
    // where it has not (an edge runtime). Both make the same checks and refuse with the same codes
    // and messages (verify-checks.ts), so the answers are the same.
    verifyNow: findNodeCrypto() === undefined ? undefined : verifyWebhook,
  };
}
