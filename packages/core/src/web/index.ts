// '@dcbkit/core/web': dcbkit over fetch's Request and Response, for any server that speaks them:
// an edge function (Cloudflare Workers, Vercel, Netlify), Deno, Bun, and the adapters built on it
// (Hono, Next.js route handlers). The webhook as `(request) => Promise<Response>`, the partner
// routes, and the parts of the kit that run where only web APIs exist (the webhook handler, the
// memory store and ledger). Nothing here imports a node builtin: it bundles for esbuild's
// `platform: 'neutral'`. The framework-neutral plumbing every adapter shares (the route maker's
// options, the route handlers, the gate's answer, the outcome's dispatch to render, renderError or
// the answer, HttpAnswer) is here too, Node adapters included: '@dcbkit/core/node' adds only what
// reads a Node request.
//
// Exported by '@dcbkit/core' too, on purpose: the error family (DcbError, isDcbError), which a
// caller of this entry catches, and memoryStore and memoryLedger, which an edge runtime reaches
// only through this entry. Every other name here is exported by this entry alone.

export { DcbError, isDcbError } from '../errors/dcb-error.js';
// Every factory's options checked the same way: adapters, stores and core itself.
export { type OptionNames, type RenamedOption, refuseUnknownOptions } from '../errors/unknown-options.js';
export type { HttpAnswer } from '../http/http-answer.js';
export { memoryLedger } from '../ledger/memory-ledger.js';
// The routes' type here, not beside createPartnerRoutes in '/node': an adapter on fetch names it,
// and its declarations must not reach node's types.
export type { CheckoutHealth, RefusedCheckoutUrl } from '../routes/checkout-refusals.js';
export { gateAnswer } from '../routes/gate-answer.js';
export type { PartnerRoutes } from '../routes/partner-routes.js';
export {
  checkGateOptions,
  checkRouteHandlerOptions,
  type RouteHandlerOptions,
  type RouteHandlerOptionsCheck,
} from '../routes/route-handler-options.js';
export {
  type PartnerRouteHandlers,
  partnerRouteHandlers,
  type RouteHandlerFactory,
} from '../routes/route-handlers.js';
export type { PartnerAction, PartnerRouteOutcome, RouteCaller } from '../routes/run-route-request.js';
export { type RouteOutcomeWriters, writeRouteOutcome } from '../routes/write-route-outcome.js';
export { memoryStore } from '../store/memory-store.js';
export {
  type CreateWebhookHandlerOptions,
  createWebhookHandler,
  type WebhookHandler,
} from '../webhooks/create-webhook-handler.js';
export {
  createFetchRoutes,
  type FetchAccessGate,
  type FetchRouteHandler,
  type FetchRoutes,
  type FetchRoutesOptions,
} from './create-fetch-routes.js';
export { type FetchRouteParts, runFetchRoute } from './fetch-route-request.js';
export { outcomeResponse } from './outcome-response.js';
export { type RequestBodyLimits, readRequestBody } from './read-request-body.js';
export { responseOf, withHeaders } from './response-of.js';
export { createFetchWebhook, type FetchWebhookOptions, runFetchWebhook } from './run-fetch-webhook.js';
