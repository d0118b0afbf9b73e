// '@dcbkit/core': what an app uses. The kit (createDcbKit, configFromEnv, defineOffers, the memory
// store and ledger, the client alone, reconcile for a scheduler), the access predicates its pages
// ask, offers and their display, the resource types its code names, and the one error family with
// its one code union. At most 60 names (entry-points.test.ts counts them). Every name has one
// entry point; other audiences have theirs:
// '@dcbkit/core/store' for store authors (the contracts, the rules a store runs, the conformance
// suites), '@dcbkit/core/schemas' for the zod schemas, '@dcbkit/core/webhooks' for verification
// and signing alone, '@dcbkit/core/node' for adapter authors and for wiring the parts by hand on
// Node, '@dcbkit/core/web' for servers on fetch's Request and Response (edge runtimes included).
//
// Exported from more than one entry, on purpose: the error family (DcbError, isDcbError, and
// WebhookVerificationError beside '/webhooks'), which each entry's callers must catch; and
// memoryStore and memoryLedger beside '/web', because this entry imports node builtins and an
// edge runtime reaches them only through '/web'.

export { type AccessReason, accessReason } from './access/access-reason.js';
export { consumeUnit } from './access/consume-unit.js';
export { availableUnits, hasAccess } from './access/has-access.js';
export { type OfferStanding, offerStanding, offerStandings } from './access/offer-standing.js';
export {
  accessEndsAt,
  type SubscriptionActions,
  subscriptionActions,
} from './access/subscription-actions.js';
export type { CreateClientOptions } from './client/client-options.js';
export { createClient, type DcbClient } from './client/create-client.js';
export { DcbApiError, isDcbApiError } from './client/errors.js';
export { errorGroupOf } from './errors/code-groups.js';
export { DcbError, isDcbError } from './errors/dcb-error.js';
export { DCB_ERROR_CODES, type DcbErrorCode } from './errors/error-codes.js';
export { configFromEnv, DCB_ENV_VARIABLES, type DcbEnvConfig } from './kit/config-from-env.js';
export { createDcbKit, type DcbKit, type DcbKitConfig } from './kit/create-dcb-kit.js';
export type { AccessExplanation } from './kit/explain.js';
export type { Readiness, ReadinessCheck } from './kit/readiness.js';
export { memoryLedger } from './ledger/memory-ledger.js';
// The root holds 60 names at most (entry-points.test.ts): a report's parts are reached through it,
// `MetricsReport['totals']`, `MetricsReport['rows'][number]`.
export type { MetricsReport } from './metrics/metrics-report.js';
export type { ErrorContext } from './observability/error-reporter.js';
export { consoleLogger, type DcbLogger, type LogFields, silentLogger } from './observability/logger.js';
export { defineOffers, type Offers } from './offers/define-offers.js';
export { formatBillingPeriod, formatOfferPrice } from './offers/format-billing-period.js';
export { formatDateTime } from './offers/format-date-time.js';
export { formatPrice } from './offers/format-price.js';
export { reconcile } from './reconcile/reconcile.js';
export type { ReconcileReport } from './reconcile/reconcile-report.js';
export type { RouteView } from './routes/route-result.js';
export type { Entitlement, EntitlementStatus } from './schemas/entitlement.js';
export type { WebhookEventName } from './schemas/event-names.js';
export type { OfferDefinition, OfferDefinitionInput } from './schemas/offer.js';
export type { Payment, PaymentStatus } from './schemas/payment.js';
export type { Money } from './schemas/primitives.js';
export type { Subscription, SubscriptionStatus } from './schemas/subscription.js';
export type { WebhookEvent } from './schemas/webhook-event.js';
export { memoryStore } from './store/memory-store.js';
export type { WebhookHealth } from './webhooks/webhook-health.js';
export { WebhookVerificationError } from './webhooks/webhook-verification-error.js';
