// '@dcbkit/core/node': the plumbing framework adapters share (@dcbkit/express, @dcbkit/koa, or
// your own for another Node framework). Partner apps do not need it. A server on fetch's Request
// and Response (Hono, Next.js, an edge function) has '@dcbkit/core/web' instead.

export type { RawBodyErrorCode } from '../http/body-error.js';
export type { HttpAnswer } from '../http/http-answer.js';
export { gateAnswer } from '../routes/gate-answer.js';
export { partnerRouteHandlers, type RouteHandlerFactory } from '../routes/route-handlers.js';
export type { PartnerAction, PartnerRouteOutcome } from '../routes/run-route-request.js';
export { isCrossSiteRequest, type RequestOrigin } from '../routes/same-origin.js';
export { keptBytesOf } from './kept-bytes.js';
export type { FieldSources } from './node-route-request.js';
export { getRawBody, type RawBodySource } from './read-raw-body.js';
export { type NodeWebhookRequest, runNodeWebhook } from './run-node-webhook.js';
export { runPartnerRoute } from './run-partner-route.js';
