// '@dcbkit/core/node': the plumbing framework adapters share (@dcbkit/express, @dcbkit/koa, or
// your own for another Node framework). Partner apps do not need it.

export type { HttpAnswer } from '../http/http-answer.js';
export { isCrossSiteRequest, type RequestOrigin } from '../routes/same-origin.js';
export type { FieldSources } from './collect-fields.js';
export type { RawBodyErrorCode } from './raw-body-error.js';
export { getRawBody, type RawBodySource } from './read-raw-body.js';
export { type NodeWebhookRequest, runNodeWebhook } from './run-node-webhook.js';
export {
  gateAnswer,
  type PartnerAction,
  type PartnerRouteOutcome,
  runPartnerRoute,
} from './run-partner-route.js';
