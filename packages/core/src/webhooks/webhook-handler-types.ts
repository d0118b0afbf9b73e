import type { AccountKeyOptions } from '../apply/account-key.js';
import type { WebhookListeners } from '../apply/listeners.js';
import type { PendingPaymentKeeper } from '../apply/pending-payments.js';
import type { PaymentsApi } from '../client/payments.js';
import type { SubscriptionsApi } from '../client/subscriptions.js';
import type { HttpAnswer } from '../http/http-answer.js';
import type { EventLedger } from '../ledger/event-ledger.js';
import type { ErrorHook, ReportError } from '../observability/error-reporter.js';
import type { DcbLogger } from '../observability/logger.js';
import type { Offers } from '../offers/define-offers.js';
import type { LinePolicy } from '../schemas/line-pays-twice.js';
import type { OfferDefinitionInput } from '../schemas/offer.js';
import type { Subscription } from '../schemas/subscription.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { RawBody } from './raw-body.js';
import type { WebhookHealth } from './webhook-health.js';

/** A webhook request as any framework has it: the raw body bytes and the headers, names lowercased. */
export interface WebhookRequest {
  /** The exact bytes received (Buffer, Uint8Array or string), never a parsed object. */
  rawBody: RawBody;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

export interface CreateWebhookHandlerOptions extends AccountKeyOptions {
  /** The environment's webhook signing secret, or several while rotating. */
  secrets: string | readonly string[];
  /** Where entitlements live; when it keeps pending payments too, a payment's outcome settles its record. */
  store: EntitlementStore & PendingPaymentKeeper;
  ledger: EventLedger;
  /** Your offers (defineOffers, or the plain list): they say what each offer grants. */
  offers: Offers | readonly OfferDefinitionInput[];
  /** Your listeners, per event name and for access granted / revoked. At least once: make them idempotent. */
  on?: WebhookListeners;
  /** The de-duplication key of an event. Default `eventKey` (name, payment, subscription, order, occurredAt). */
  eventKey?: (event: WebhookEvent) => string;
  /** Larger bodies get 413 before any verification. Default 1 MiB. */
  maxBodyBytes?: number;
  /** How long a webhook body may take to arrive, through an adapter that reads it (Node's, or `@dcbkit/core/web`'s). Default 10 000 ms; slower ones get 408. */
  bodyTimeoutMs?: number;
  /** Signature timestamp tolerance: a whole number of seconds, 1 to 3600. Default 300, as the spec says. */
  toleranceSeconds?: number;
  /**
   * The longest the store, the ledger and your listeners may take for one delivery. Past it the
   * handler answers 503 (the service retries), releases the claim and reports the timeout.
   * Default 10 000.
   */
  timeoutMs?: number;
  /**
   * Settles a same-instant tie between subscription events (a cancellation and its withdrawal
   * in one second) with a server-side read, as the spec allows. createDcbKit wires the client.
   */
  confirm?: (event: WebhookEvent) => Promise<Subscription | undefined>;
  /**
   * What to do when a payment makes one phone line hold live subscriptions of one product under
   * several accounts (docs/entitlements.md#one-line-two-accounts): `report` (default) records it in
   * both accounts' history, logs it and calls `onError` and `on.linePaysTwice`; `cancel-newer` also
   * cancels the newer subscription at period end through `subscriptions`. Needs a store that
   * answers by line (`listBySubscriberUid`).
   */
  linePolicy?: LinePolicy;
  /** The API's subscriptions, for `linePolicy: 'cancel-newer'` (createDcbKit wires its client). */
  subscriptions?: Pick<SubscriptionsApi, 'cancel' | 'retrieve'>;
  /**
   * The API's payments, to read the code of a checkout that `payment.failed` ended (the event
   * carries none) for the checkout funnel (`kit.checkoutFunnel`): read once per such checkout,
   * only when the store keeps metrics. Without it, such a failure counts without a code (`none`).
   * createDcbKit wires its client.
   */
  payments?: Pick<PaymentsApi, 'retrieve'>;
  /** Default: warnings and errors on the console. pino plugs in as it is. */
  logger?: DcbLogger;
  /** Receives the Error (stack and cause kept) whenever the handler answers 5xx. */
  onError?: ErrorHook;
  /**
   * Record every decision in the store's history (when the store keeps one: memoryStore and the
   * SQL stores do). Default true.
   */
  history?: boolean;
  /**
   * Record the business view's facts (renewals, trials, churn, sales: `kit.metrics`) in the store,
   * when it keeps them (memoryStore and the SQL stores do). Default true.
   */
  metrics?: boolean;
  /** The clock, for tests. */
  now?: () => Date;
}

/** The handler: call it with the raw request, write back what it returns. */
export interface WebhookHandler {
  (request: WebhookRequest): Promise<HttpAnswer>;
  // What an adapter that reads the body itself needs to answer as the handler would.
  /** The body size above which it answers 413; adapters stop reading the stream there too. */
  readonly maxBodyBytes: number;
  /** How long adapters wait for the body before answering 408. */
  readonly bodyTimeoutMs: number;
  /** The handler's error reporting (log and onError), for adapters that answer before calling it. */
  readonly reportError: ReportError;
  /** Counts of the deliveries answered since the handler was made, by outcome and code. */
  health(): WebhookHealth;
  /**
   * The answer to a body an adapter could not read (too large, too slow, cut off, or consumed by a
   * parser), counted in `health()` like the handler's own answers.
   */
  refuseBody(code: BodyProblem): HttpAnswer;
}

/** Why an adapter could not hand the body over. */
export type BodyProblem = 'body_too_large' | 'body_timeout' | 'body_incomplete' | 'body_not_raw';
