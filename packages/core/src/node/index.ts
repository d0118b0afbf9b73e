// '@dcbkit/core/node': what reads a Node request, for framework adapters (@dcbkit/express,
// @dcbkit/koa, @dcbkit/fastify, or your own for another Node framework), and the parts of the kit
// for wiring them by hand on Node without createDcbKit (the partner routes, a payment read applied
// to a store). Partner apps using createDcbKit do not need it. The plumbing every adapter shares,
// whatever its request (the route handlers, the gate's answer, HttpAnswer), is in
// '@dcbkit/core/web', which runs on Node too. Every name here is exported by this entry alone.

export { applyPaymentRead, type GrantResult } from '../apply/apply-payment-read.js';
export { rememberPendingPayment } from '../apply/pending-payments.js';
export { createCheckoutNonce } from '../routes/checkout-nonce.js';
export { createPartnerRoutes, type PartnerRoutesOptions } from '../routes/partner-routes.js';
export type { RouteResult } from '../routes/route-result.js';
export { isCrossSiteRequest, type RequestOrigin } from '../routes/same-origin.js';
export { keptBytesOf } from './kept-bytes.js';
export type { FieldSources } from './node-route-request.js';
export { getRawBody, type RawBodySource } from './read-raw-body.js';
export { type NodeWebhookRequest, runNodeWebhook } from './run-node-webhook.js';
export { runPartnerRoute } from './run-partner-route.js';
