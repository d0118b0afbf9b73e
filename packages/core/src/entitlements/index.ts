export {
  ENTITLEMENT_STATUSES,
  type Entitlement,
  type EntitlementKey,
  type EntitlementStatus,
  entitlementSchema,
  entitlementStatusSchema,
} from './entitlement.js';
export { EntitlementError, type EntitlementErrorCode } from './errors.js';
export { type AccountKeyOption, DEFAULT_ACCOUNT_KEY_FIELD } from './handler/account-key.js';
export {
  type ApplySubscriptionReadOptions,
  applySubscriptionRead,
} from './handler/apply-subscription-read.js';
export {
  type CreateWebhookHandlerOptions,
  createWebhookHandler,
  type WebhookHandler,
  type WebhookRequest,
} from './handler/create-webhook-handler.js';
export {
  type GrantFromPaymentOptions,
  type GrantOutcome,
  type GrantResult,
  grantFromPayment,
} from './handler/grant-from-payment.js';
export type {
  AccessContext,
  EventContext,
  EventListeners,
  EventNamed,
  WebhookListeners,
} from './handler/listeners.js';
export type { WebhookLogger } from './handler/logger.js';
export {
  IN_PROGRESS_RETRY_SECONDS,
  UNMATCHED_RETRY_SECONDS,
  type WebhookOutcome,
  type WebhookResponse,
} from './handler/webhook-response.js';
export { eventKey } from './ledger/event-key.js';
export type { ClaimResult, EventLedger } from './ledger/event-ledger.js';
export { DELIVERY_WINDOW_MS, type MemoryLedgerOptions, memoryLedger } from './ledger/memory-ledger.js';
export { currencyMinorUnits } from './offers/currency-minor-units.js';
export {
  defineOffers,
  OfferDefinitionError,
  type OfferDefinitionErrorCode,
  type Offers,
} from './offers/define-offers.js';
export { formatBillingPeriod, formatOfferPrice } from './offers/format-billing-period.js';
export { formatPrice } from './offers/format-price.js';
export { consumeUnit } from './rules/consume-unit.js';
export { decide } from './rules/decide.js';
export { availableUnits, hasAccess } from './rules/has-access.js';
export type { EntitlementChange, EntitlementStore } from './store/entitlement-store.js';
export { memoryStore } from './store/memory-store.js';
