export { checkoutIdempotencyKey, createCheckoutNonce, isCheckoutNonce } from './checkout-nonce.js';
export {
  type AccessDeniedOptions,
  answerForDeniedAccess,
  answerForError,
  answerForResult,
  type HttpAnswer,
} from './http-answer.js';
export {
  createPartnerRoutes,
  type PartnerRoutes,
  type PartnerRoutesOptions,
  type RouteFields,
  type RouteInput,
} from './partner-routes.js';
export { RouteError, type RouteErrorCode } from './route-error.js';
export type { PartnerRouteHandlers } from './route-handlers.js';
export type { ReturnState, RouteResult, RouteView } from './route-result.js';
