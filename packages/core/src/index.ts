// '@dcbkit/core': what an app needs. The kit and its parts (client, webhook handler, partner
// routes, the memory store and ledger), the access predicates its pages ask, offers and their
// display, the resource types and the one error family. Other audiences have their own entry:
// '@dcbkit/core/store' for store authors, '@dcbkit/core/schemas' for the zod schemas,
// '@dcbkit/core/webhooks' for verification alone, '@dcbkit/core/node' for adapter authors,
// '@dcbkit/core/web' for servers on fetch's Request and Response (edge runtimes included).

export { type AccessReason, type AccessReasonCode, accessReason } from './access/access-reason.js';
export { consumeUnit } from './access/consume-unit.js';
export type { EntitlementErrorCode } from './access/errors.js';
export { availableUnits, hasAccess } from './access/has-access.js';
export {
  type OfferStanding,
  type OfferStandingInput,
  type OfferStandingsInput,
  type OpenCheckout,
  offerStanding,
  offerStandings,
} from './access/offer-standing.js';
export {
  accessEndsAt,
  type SubscriptionActions,
  subscriptionActions,
} from './access/subscription-actions.js';
export type { AccountKeyOptions } from './apply/account-key.js';
export {
  type ApplyPaymentReadOptions,
  applyPaymentRead,
  type GrantOutcome,
  type GrantResult,
} from './apply/apply-payment-read.js';
export {
  type ApplySubscriptionReadOptions,
  applySubscriptionRead,
} from './apply/apply-subscription-read.js';
export type {
  AccessContext,
  EventContext,
  EventListeners,
  EventNamed,
  WebhookListeners,
} from './apply/listeners.js';
export { rememberPendingPayment } from './apply/pending-payments.js';
export type { CapabilitiesApi } from './client/capabilities.js';
export type { CreateClientOptions, RequestOptions } from './client/client-options.js';
export { createClient, type DcbClient } from './client/create-client.js';
export type { Environment } from './client/environment-guard.js';
export { DcbApiError, isDcbApiError } from './client/errors.js';
export type { CreatePaymentOptions, PaymentsApi } from './client/payments.js';
export type { SubscriptionsApi } from './client/subscriptions.js';
export { DcbError, isDcbError } from './errors/dcb-error.js';
export {
  type ApiErrorCode,
  DCB_ERROR_CODES,
  type DcbErrorCode,
  type KitErrorCode,
} from './errors/error-codes.js';
export { configFromEnv, DCB_ENV_VARIABLES, type DcbEnvConfig } from './kit/config-from-env.js';
export {
  createDcbKit,
  type DcbKit,
  type DcbKitConfig,
  type DefaultStore,
} from './kit/create-dcb-kit.js';
export type {
  AccessExplanation,
  ExplainOptions,
  ProductExplanation,
  ServiceView,
} from './kit/explain.js';
export type { Readiness, ReadinessCheck } from './kit/readiness.js';
export type { Claim, ClaimResult, ClaimToken, EventLedger } from './ledger/event-ledger.js';
export { type MemoryLedgerOptions, memoryLedger } from './ledger/memory-ledger.js';
export type { ErrorContext, ErrorHook } from './observability/error-reporter.js';
export {
  consoleLogger,
  type DcbLogger,
  type LogFields,
  type LogFunction,
  silentLogger,
} from './observability/logger.js';
export {
  defineOffers,
  type OfferDefinitionErrorCode,
  type Offers,
} from './offers/define-offers.js';
export { formatBillingPeriod, formatOfferPrice } from './offers/format-billing-period.js';
export { formatDateTime } from './offers/format-date-time.js';
export { formatPrice } from './offers/format-price.js';
export type { Sleep } from './reconcile/rate-limit-gate.js';
export { reconcile } from './reconcile/reconcile.js';
export type { ReconcileOptions, ReconcileRunOptions } from './reconcile/reconcile-options.js';
export type {
  CheckReason,
  ReconcileChange,
  ReconcileFailure,
  ReconcileReport,
} from './reconcile/reconcile-report.js';
export type { Reconciler, StartReconcilerOptions } from './reconcile/start-reconciler.js';
export { createCheckoutNonce } from './routes/checkout-nonce.js';
export {
  createPartnerRoutes,
  type PartnerRoutes,
  type PartnerRoutesOptions,
  type RouteFields,
  type RouteInput,
} from './routes/partner-routes.js';
export type { RouteErrorCode } from './routes/route-error.js';
export type { PartnerRouteHandlers } from './routes/route-handlers.js';
export type { ReturnState, RouteResult, RouteView } from './routes/route-result.js';
export type { ErrorCode } from './schemas/api-error-codes.js';
export type { Capabilities, CapabilitiesQuery, ConsentMethod } from './schemas/capabilities.js';
export type { CreatePaymentRequest, Presentation } from './schemas/create-payment.js';
export type { Entitlement, EntitlementKey, EntitlementStatus } from './schemas/entitlement.js';
export type { WebhookEventName } from './schemas/event-names.js';
export type { BillingPeriod, GracePolicy, OfferDefinition, OfferDefinitionInput } from './schemas/offer.js';
export type { OfferType } from './schemas/offer-type.js';
export type { CanceledPayment, Payment, PaymentStatus } from './schemas/payment.js';
export type { Metadata, Money } from './schemas/primitives.js';
export type { Subscription, SubscriptionCancelWhen, SubscriptionStatus } from './schemas/subscription.js';
export type { PaymentWebhookEvent, WebhookEvent } from './schemas/webhook-event.js';
export type { EntitlementChange, EntitlementStore, EntitlementUpdate } from './store/entitlement-store.js';
export type {
  HistoryDecision,
  HistoryEntry,
  HistoryQuery,
  HistorySource,
  HistoryStore,
} from './store/history-store.js';
export { type MemoryStoreOptions, memoryStore } from './store/memory-store.js';
export type { PendingPayment, ReconcileStore } from './store/reconcile-store.js';
export {
  type BodyProblem,
  type CreateWebhookHandlerOptions,
  createWebhookHandler,
  type WebhookHandler,
  type WebhookRequest,
} from './webhooks/create-webhook-handler.js';
export { type SignWebhookOptions, signWebhook } from './webhooks/sign-webhook.js';
export { signWebhookAsync } from './webhooks/sign-webhook-async.js';
export { type VerifyWebhookOptions, verifyWebhook } from './webhooks/verify-webhook.js';
export { verifyWebhookAsync } from './webhooks/verify-webhook-async.js';
export type { WebhookOutcome } from './webhooks/webhook-answers.js';
export type { DeliveryOutcome, WebhookHealth } from './webhooks/webhook-health.js';
export {
  type WebhookVerificationCode,
  WebhookVerificationError,
} from './webhooks/webhook-verification-error.js';
