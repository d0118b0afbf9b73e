import { DEFAULT_ACCOUNT_KEY_FIELD } from '../apply/account-key.js';
import type { GrantResult } from '../apply/apply-payment-read.js';
import { historyRecorder, type RecordHistory } from '../apply/history-entry.js';
import { keptHistoryOf } from '../apply/kept-history.js';
import { factRecorder, keptMetricsOf, type RecordFacts } from '../apply/record-facts.js';
import type { DcbClient } from '../client/create-client.js';
import { createErrorReporter, type ReportError } from '../observability/error-reporter.js';
import { createLogLimit } from '../observability/log-limit.js';
import { consoleLogger, type DcbLogger } from '../observability/logger.js';
import type { Offers } from '../offers/define-offers.js';
import type { Payment } from '../schemas/payment.js';
import { type CheckoutLock, createCheckoutLock } from './checkout-lock.js';
import { type CheckoutRefusals, createCheckoutRefusals } from './checkout-refusals.js';
import type { FormTokenKeys } from './form-token.js';
import type { PartnerRoutesOptions } from './partner-route-types.js';
import {
  allowedOriginsOf,
  checkoutBaseUrlOf,
  formKeysOf,
  refuseUnknownRouteOptions,
} from './route-options.js';

/** What every partner route works with: the options resolved once, and the pieces they share. */
export interface RouteContext {
  readonly client: DcbClient;
  readonly store: PartnerRoutesOptions['store'];
  readonly offers: Offers;
  readonly returnUrl: string;
  /** The payment metadata field that carries the account key. */
  readonly accountKeyField: string;
  readonly prefill: PartnerRoutesOptions['prefill'];
  readonly grantSucceededPayment: (payment: Payment) => Promise<GrantResult>;
  readonly now: () => Date;
  readonly logger: DcbLogger;
  readonly reportError: ReportError;
  /** True at most once a minute per key: what a log line repeated by every request is asked. */
  readonly logLimit: (key: string) => boolean;
  readonly allowedOrigins: ReadonlySet<string>;
  readonly formKeys: FormTokenKeys;
  readonly checkoutBaseUrl: URL | undefined;
  readonly checkoutLock: CheckoutLock;
  /** The checkout URLs refused since start, for `checkoutHealth()`. */
  readonly checkoutRefusals: CheckoutRefusals;
  readonly recordHistory: RecordHistory | undefined;
  readonly recordFacts: RecordFacts | undefined;
  /** Whether the facts go to the store, which counts each once (recordFacts may count them only). */
  readonly keepsFacts: boolean;
}

/** The routes' context from their options, checked (a wrong option throws here, at startup). */
export function routeContextOf(options: PartnerRoutesOptions): RouteContext {
  refuseUnknownRouteOptions(options);
  const logger = options.logger ?? consoleLogger;
  const keptMetrics = keptMetricsOf(options.store, options.metrics);
  return {
    client: options.client,
    store: options.store,
    offers: options.offers,
    returnUrl: options.returnUrl,
    accountKeyField: options.accountKeyField ?? DEFAULT_ACCOUNT_KEY_FIELD,
    prefill: options.prefill,
    grantSucceededPayment: options.grantSucceededPayment,
    now: options.now ?? (() => new Date()),
    logger,
    reportError: createErrorReporter(logger, options.onError),
    logLimit: createLogLimit(),
    allowedOrigins: new Set(allowedOriginsOf(options.returnUrl, options.allowedOrigins)),
    formKeys: formKeysOf(options.formSecret, options.formTokenMaxAgeMs),
    checkoutBaseUrl: checkoutBaseUrlOf(options.checkoutBaseUrl, options.client.environment),
    checkoutLock: createCheckoutLock(options.store),
    checkoutRefusals: createCheckoutRefusals(options.now),
    recordHistory: historyRecorder(keptHistoryOf(options.store, options.history)),
    recordFacts: factRecorder(keptMetrics),
    keepsFacts: keptMetrics !== undefined,
  };
}
