import document from './openapi.json';

/**
 * The service as an OpenAPI 3.1.0 document: the token endpoint, the seven `/v1` operations with
 * their bodies, headers, envelopes and error codes, and the signed webhook. Written from the
 * specification (where it says "not shown", the document says so); served by every environment at
 * `GET /openapi.json` and published as `@dcbkit/sandbox/openapi.json`. The emulator's answers in
 * its test suites are validated against it.
 */
export const OPENAPI_DOCUMENT: Readonly<Record<string, unknown>> = document;

/** An API route of the document: the method and the path as the router writes it (`:paymentUid`). */
export interface ApiRoute {
  method: 'GET' | 'POST';
  path: string;
}
