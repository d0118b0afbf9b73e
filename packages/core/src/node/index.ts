export { RawBodyError, type RawBodyErrorReason } from './raw-body-error.js';
export { DEFAULT_MAX_BODY_BYTES, getRawBody, type RawBodySource } from './read-raw-body.js';
