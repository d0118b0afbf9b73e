import { tokenResponseSchema } from '../schemas/envelope.js';
import { DcbTokenError } from './errors.js';
import type { HttpAnswer } from './http-transport.js';
import {
  type AnswerContext,
  type AnswerReading,
  isSuccessStatus,
  readErrorEnvelope,
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
 * Reads the token endpoint's plain-JSON answer. Any refusal becomes DcbTokenError with the HTTP
 * status and the body's code when it has one.
 */
export function readTokenAnswer(answer: HttpAnswer, context: AnswerContext): AnswerReading<IssuedToken> {
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
  const retryAfterMs = suggestedDelayMs(answer, errorBody, context.nowMs);
  const code = errorBody?.code;
  const said = errorBody ? `${code}: ${errorBody.message}` : 'no error envelope';
  return {
    ok: false,
    error: new DcbTokenError({
      httpStatus: answer.status,
      code,
      message: `The token request was refused (HTTP ${answer.status}, ${said}). Check the client ID and secret of this environment.`,
      retryable: errorBody?.retryable,
      retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
      body: answer.body.json ? answer.body.value : answer.body.text,
    }),
    retryable: errorBody ? statedRetryable(errorBody) : undefined,
    retryAfterMs,
  };
}
