export { collectFields, type FieldSources, MAX_FORM_BYTES } from './collect-fields.js';
export { handleNodeWebhook, type NodeWebhookRequest } from './handle-node-webhook.js';
export { RawBodyError, type RawBodyErrorReason } from './raw-body-error.js';
export { DEFAULT_MAX_BODY_BYTES, getRawBody, type RawBodySource } from './read-raw-body.js';
export {
  gateAnswer,
  type PartnerAction,
  type PartnerRouteOutcome,
  runPartnerRoute,
} from './run-partner-route.js';
