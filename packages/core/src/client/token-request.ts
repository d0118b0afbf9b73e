import { DcbError } from '../errors/dcb-error.js';
import { tokenResponseSchema } from '../schemas/envelope.js';
import type { Environment } from './environment-guard.js';
import type { HttpAnswer } from './http-transport.js';
import {
  type AnswerContext,
  type AnswerReading,
  isSuccessStatus,
  readErrorEnvelope,
  serviceRefusal,
  statedRetryable,
  suggestedDelayMs,
  unexpectedAnswer,
} from './read-answer.js';
import type { IssuedToken } from './token-cache.js';

export const TOKEN_PATH = '/oauth2/token';

/** The form body of `POST /oauth2/token`. It holds the secret: it is sent, never logged. */
export function tokenRequestBody(clientId: string, clientSecret: string): string {
  return new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  }).toString();
}

/**
 * Reads the token endpoint's plain-JSON answer. A refusal in the service's error envelope is
 * `token_refused` (wrong ID or secret, or a credential of the other environment); a 404 or any
 * answer that is not the service's is `wrong_base_url`, so the two are never confused.
 */
export function readTokenAnswer(
  answer: HttpAnswer,
  context: AnswerContext,
  environment: Environment,
): AnswerReading<IssuedToken> {
  if (isSuccessStatus(answer.status)) {
    if (!answer.body.json) return unexpectedAnswer(answer, context);
    const parsed = tokenResponseSchema.safeParse(answer.body.value);
    if (!parsed.success) return unexpectedAnswer(answer, context, 'not a token response');
    return {
      ok: true,
      value: { accessToken: parsed.data.access_token, expiresInSeconds: parsed.data.expires_in },
    };
  }
  const errorBody = readErrorEnvelope(answer);
  const oauthError = oauthErrorOf(answer);
  // "Not found", or an answer that is neither the service's envelope nor an OAuth error: the
  // token endpoint is not where the base URL says.
  if (answer.status === 404 || (errorBody === undefined && oauthError === undefined)) {
    if (answer.status >= 500) return unexpectedAnswer(answer, context);
    return {
      ok: false,
      retryable: undefined,
      retryAfterMs: undefined,
      error: new DcbError(
        'wrong_base_url',
        `The token endpoint is not at ${context.path} of the configured base URL (HTTP ${answer.status}${errorBody ? `, ${errorBody.code}` : ''}). Set the base URL to the API root of the service, without /v1.`,
        {
          httpStatus: answer.status,
          details: { method: context.method, path: context.path, status: answer.status },
        },
      ),
    };
  }
  if (errorBody === undefined) {
    return {
      ok: false,
      retryable: undefined,
      retryAfterMs: undefined,
      error: new DcbError(
        'token_refused',
        `The token request was refused (HTTP ${answer.status}, ${oauthError}). ${credentialsAdvice(environment)}`,
        { httpStatus: answer.status, details: { oauthError, status: answer.status } },
      ),
    };
  }
  const retryAfterMs = suggestedDelayMs(answer, errorBody, context.nowMs);
  const retryable = statedRetryable(errorBody);
  // A rate limit or a failure of the endpoint is the service's state, not the partner's credentials.
  if (retryable === true || answer.status === 429 || answer.status >= 500) {
    return serviceRefusal(answer, errorBody, context);
  }
  return {
    ok: false,
    error: new DcbError(
      'token_refused',
      `The token request was refused (HTTP ${answer.status}, ${errorBody.code}: ${errorBody.message}). ${credentialsAdvice(environment)}`,
      {
        httpStatus: answer.status,
        retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
        details: { serviceCode: errorBody.code, status: answer.status },
      },
    ),
    retryable,
    retryAfterMs,
  };
}

/**
 * What to check after a refused token request. Each environment has its own credentials, and
 * production's exist only once the go-live review approved the application: a refusal there
 * most often means an unapproved application, or sandbox credentials left in place.
 */
function credentialsAdvice(environment: Environment): string {
  return environment === 'production'
    ? 'Check the client ID and secret of production: they are issued when the go-live review approves the application, and sandbox credentials are not valid there.'
    : 'Check the client ID and secret of the sandbox: production credentials are not valid there.';
}

/** The `error` of an OAuth 2.0 error answer (RFC 6749 5.2), e.g. `invalid_client`. */
function oauthErrorOf(answer: HttpAnswer): string | undefined {
  if (!answer.body.json || (answer.status !== 400 && answer.status !== 401)) return undefined;
  const value = answer.body.value as { error?: unknown } | null;
  return typeof value?.error === 'string' ? value.error : undefined;
}
