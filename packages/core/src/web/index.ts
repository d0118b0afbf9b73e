// '@dcbkit/core/web': dcbkit over fetch's Request and Response, for any server that speaks them:
// an edge function (Cloudflare Workers, Vercel, Netlify), Deno, Bun, and the adapters built on it
// (Hono, Next.js route handlers). The webhook as `(request) => Promise<Response>`, the partner
// routes, and the parts of the kit that run where only web APIs exist (the webhook handler, the
// memory store and ledger). Nothing here imports a node builtin: it bundles for esbuild's
// `platform: 'neutral'`. Node adapters have '@dcbkit/core/node'.

export { DcbError, isDcbError } from '../errors/dcb-error.js';
export type { RawBodyErrorCode } from '../http/body-error.js';
export type { HttpAnswer } from '../http/http-answer.js';
export { type MemoryLedgerOptions, memoryLedger } from '../ledger/memory-ledger.js';
export { gateAnswer } from '../routes/gate-answer.js';
export {
  type PartnerRouteHandlers,
  partnerRouteHandlers,
  type RouteHandlerFactory,
} from '../routes/route-handlers.js';
export type { PartnerAction, PartnerRouteOutcome, RouteCaller } from '../routes/run-route-request.js';
export { type MemoryStoreOptions, memoryStore } from '../store/memory-store.js';
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
export { type RequestBodyLimits, readRequestBody } from './read-request-body.js';
export { responseOf, withHeaders } from './response-of.js';
export { createFetchWebhook, type FetchWebhookOptions, runFetchWebhook } from './run-fetch-webhook.js';
