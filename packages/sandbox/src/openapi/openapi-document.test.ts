import { readFile } from 'node:fs/promises';
import { SERVICE_ERROR_CODES } from '@dcbkit/core/schemas';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../start/start-sandbox.js';
import { openApiContract } from '../test-support/openapi-contract.js';
import { startTestSandbox } from '../test-support/sandbox-fixture.js';
import { OPENAPI_DOCUMENT } from './openapi-document.js';

const DOCUMENT_FILE = new URL('./openapi.json', import.meta.url);

describe('the OpenAPI document of the service', () => {
  it('is a valid OpenAPI 3.1.0 document (@readme/openapi-parser)', async () => {
    // validate() dereferences in place: it gets a copy.
    const result = await validate(structuredClone(OPENAPI_DOCUMENT) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(OPENAPI_DOCUMENT.openapi).toBe('3.1.0');
  });

  it('describes the token endpoint, the seven /v1 operations and the webhook', () => {
    const paths = OPENAPI_DOCUMENT.paths as Record<string, Record<string, unknown>>;
    const operations = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        'POST /oauth2/token',
        'GET /v1/capabilities',
        'POST /v1/payments',
        'GET /v1/payments/{paymentUid}',
        'POST /v1/payments/{paymentUid}/cancel',
        'GET /v1/subscriptions/{subscriptionUid}',
        'POST /v1/subscriptions/{subscriptionUid}/cancel',
        'POST /v1/subscriptions/{subscriptionUid}/resume',
      ].sort(),
    );
    expect(Object.keys(OPENAPI_DOCUMENT.webhooks as object)).toEqual(['event']);
  });

  it('gives every error code of core with the status core gives it', () => {
    const text = JSON.stringify(OPENAPI_DOCUMENT);
    const schemas = (OPENAPI_DOCUMENT.components as { schemas: Record<string, { enum?: string[] }> }).schemas;
    expect(schemas.ErrorCode?.enum?.slice().sort()).toEqual(Object.keys(SERVICE_ERROR_CODES).sort());
    for (const [code, { httpStatus }] of Object.entries(SERVICE_ERROR_CODES)) {
      expect(text, code).toContain(`${code} (${httpStatus})`);
    }
  });

  it('is the file published as @dcbkit/sandbox/openapi.json', async () => {
    expect(JSON.parse(await readFile(DOCUMENT_FILE, 'utf8'))).toEqual(OPENAPI_DOCUMENT);
  });
});

describe('the contract check of the emulator', () => {
  const { checkAnswer, checkEvent } = openApiContract();
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const answer = (status: number, body: unknown, headers: Record<string, string> = json) => ({
    method: 'POST' as const,
    path: '/v1/payments',
    status,
    headers,
    body: JSON.stringify(body),
  });
  const notFound = { success: false, error: { code: 'CAT-102', message: 'No offer offer_x.' } };

  it('passes an error envelope as the spec writes it', () => {
    expect(() => checkAnswer(answer(404, notFound))).not.toThrow();
  });

  it.each([
    [
      'a code with another status',
      answer(404, { ...notFound, error: { ...notFound.error, code: 'SUB-101' } }),
    ],
    ['a code out of the pattern', answer(404, { ...notFound, error: { ...notFound.error, code: 'CAT-1' } })],
    ['no success field', answer(404, { error: notFound.error })],
    ['retryable as a string', answer(404, { ...notFound, error: { ...notFound.error, retryable: 'yes' } })],
    ['the message left out', answer(404, { success: false, error: { code: 'CAT-102' } })],
    ['a status the operation does not document', answer(418, notFound)],
    [
      'retryAfterSeconds without its Retry-After header',
      answer(429, {
        success: false,
        error: { code: 'SEC-001', message: 'Slow down.', retryable: true, retryAfterSeconds: 3 },
      }),
    ],
    ['a body that is not JSON', answer(404, notFound, { 'content-type': 'text/plain' })],
  ])('fails an answer with %s', (_name, bad) => {
    expect(() => checkAnswer(bad)).toThrow(/does not keep|document gives|content-type|Retry-After/);
  });

  it('fails an event without its name or time, or signed in another shape', () => {
    const event = { event: 'payment.succeeded', paymentUid: 'pay_1', occurredAt: '2030-01-01T00:00:00.000Z' };
    expect(() => checkEvent(JSON.stringify(event), 't=1,v1=ab')).not.toThrow();
    expect(() => checkEvent(JSON.stringify({ ...event, occurredAt: 'yesterday' }), 't=1,v1=ab')).toThrow();
    expect(() => checkEvent(JSON.stringify({ paymentUid: 'pay_1' }), 't=1,v1=ab')).toThrow();
    expect(() => checkEvent(JSON.stringify(event), 'sha256=ab')).toThrow();
  });
});

describe('GET /openapi.json', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  it('serves the document from each environment, without a token', async () => {
    for (const base of [sandbox.apiBaseUrl, sandbox.environments.production.apiBaseUrl]) {
      const response = await fetch(`${base}/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(OPENAPI_DOCUMENT);
    }
  });
});
