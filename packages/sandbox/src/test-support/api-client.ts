import { type ApiErrorBody, errorEnvelopeSchema, successEnvelopeSchema } from '@dcbkit/core/schemas';
import { expect } from 'vitest';
import { z } from 'zod';
import { type HttpErrorCode, httpErrorCodeInfo } from '../shared/api-error.js';
import type { EnvironmentCredentials } from '../start/environment-view.js';

/**
 * A sandbox or one of its environments, and credentials to call it with: the sandbox's first
 * application's, or production ones from `approve()`.
 */
export interface ApiTarget {
  apiBaseUrl: string;
  credentials: EnvironmentCredentials;
}

/** Where requests go: a sandbox or one of its environments (credentials are only for the token). */
type BaseTarget = Pick<ApiTarget, 'apiBaseUrl'>;

/** A JSON answer of the sandbox: status, headers and parsed body. */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

async function answer(response: Response): Promise<JsonAnswer> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
    text,
  };
}

/** Gets a bearer token with the given (default: the sandbox's first) credentials. */
export async function getToken(
  sandbox: ApiTarget,
  clientId = sandbox.credentials.clientId,
  clientSecret = sandbox.credentials.clientSecret,
): Promise<string> {
  const response = await fetch(`${sandbox.apiBaseUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

export async function apiGet(
  sandbox: BaseTarget,
  path: string,
  token?: string,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  return answer(
    await fetch(`${sandbox.apiBaseUrl}${path}`, {
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    }),
  );
}

/** How many payments the sandbox holds (its control endpoint): what a replay must not add to. */
export async function paymentCount(sandbox: BaseTarget): Promise<number> {
  const listed = await apiGet(sandbox, '/sandbox/payments');
  return (listed.body as { data: unknown[] }).data.length;
}

export async function apiPost(
  sandbox: BaseTarget,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<JsonAnswer> {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return answer(
    await fetch(`${sandbox.apiBaseUrl}${path}`, {
      method: 'POST',
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(body !== undefined ? { body } : {}),
    }),
  );
}

/** A JSON request to a sandbox control endpoint (no token); a string body is sent as is. */
export async function controlRequest(
  sandbox: BaseTarget,
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
): Promise<JsonAnswer> {
  return answer(
    await fetch(`${sandbox.apiBaseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

let keyCounter = 0;

/** A fresh valid Idempotency-Key. */
export function newIdempotencyKey(): string {
  keyCounter++;
  return `test-key-${keyCounter}-${Math.random().toString(36).slice(2, 10)}`;
}

/** POST /v1/payments with a fresh key unless one is given. */
export function createPayment(
  sandbox: BaseTarget,
  token: string,
  body: Record<string, unknown>,
  key: string = newIdempotencyKey(),
): Promise<JsonAnswer> {
  return apiPost(sandbox, '/v1/payments', { token, body, headers: { 'idempotency-key': key } });
}

/** A valid create-payment body for an offer. */
export function paymentBody(offerUid: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { mode: 'HOSTED', offerUid, returnUrl: 'https://partner.example/return', ...extra };
}

/** The error of an error envelope (checked against core's schema). */
export function errorOf(answer: JsonAnswer): ApiErrorBody {
  return errorEnvelopeSchema.parse(answer.body).error;
}

/** The data of a success envelope, checked against a core schema. */
export function dataOf<T extends z.ZodType>(answer: JsonAnswer, schema: T): z.output<T> {
  const envelope = successEnvelopeSchema(z.unknown()).parse(answer.body);
  return schema.parse(envelope.data);
}

/** Asserts an answer is the error envelope of `code` with that code's HTTP status. */
export function expectApiError(answer: JsonAnswer, code: HttpErrorCode): ApiErrorBody {
  const error = errorOf(answer);
  expect({ status: answer.status, code: error.code }).toEqual({
    status: httpErrorCodeInfo(code).httpStatus,
    code,
  });
  return error;
}
