import type { ResolvedClientOptions } from './client-options.js';
import { DcbApiError, DcbNetworkError } from './errors.js';
import { type HttpAnswer, type HttpRequest, pathOf, sendOnce } from './http-transport.js';
import type { AnswerContext, AnswerReading } from './read-answer.js';
import { type AttemptFailure, decideRetry } from './retry-policy.js';

/** One logical call: the same request is sent again on each retry, key and body included. */
export interface PlannedRequest<T> {
  method: 'GET' | 'POST';
  target: string;
  headers?: Record<string, string>;
  body?: string;
  /** GET, or the create that carries its Idempotency-Key: repeating it cannot do anything twice. */
  safeToRepeat: boolean;
  read: (answer: HttpAnswer, context: AnswerContext) => AnswerReading<T>;
}

/** Where authenticated requests get their bearer token, and how a refused one is forgotten. */
export interface TokenSource {
  get(): Promise<string>;
  drop(token: string): void;
}

export type RequestRunner = <T>(request: PlannedRequest<T>, tokens?: TokenSource) => Promise<T>;

/**
 * Sends planned requests with the client's retry rules (see retry-policy.ts) and, for
 * authenticated ones, one renewal of a token the service refused with ATH-002.
 */
export function createRequestRunner(options: ResolvedClientOptions): RequestRunner {
  const { logger } = options;
  return async function run<T>(request: PlannedRequest<T>, tokens?: TokenSource): Promise<T> {
    const path = pathOf(request.target);
    let retriesDone = 0;
    let tokenRenewed = false;
    for (;;) {
      const token = tokens ? await tokens.get() : undefined;
      const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      const outcome = await attempt(request, headers, path);
      if (outcome.ok) return outcome.value;

      const { error } = outcome;
      if (
        tokens &&
        token !== undefined &&
        !tokenRenewed &&
        error instanceof DcbApiError &&
        error.code === 'ATH-002'
      ) {
        // The token expired early or was revoked: fetch a new one and send this call once more.
        tokens.drop(token);
        tokenRenewed = true;
        logger.info?.('dcbkit: access token refused; renewing it', { method: request.method, path });
        continue;
      }
      const failure: AttemptFailure = outcome.noAnswer
        ? { kind: 'no_answer' }
        : {
            kind: 'answer',
            httpStatus: outcome.httpStatus,
            retryable: outcome.retryable,
            retryAfterMs: outcome.retryAfterMs,
          };
      const decision = decideRetry(failure, {
        retriesDone,
        maxRetries: options.maxRetries,
        maxRetryDelayMs: options.maxRetryDelayMs,
        safeToRepeat: request.safeToRepeat,
        random: Math.random,
      });
      if (!decision.retry) {
        logger.debug?.('dcbkit: request failed', {
          method: request.method,
          path,
          error: error.name,
          code: codeOf(error),
          retriesDone,
          why: decision.why,
        });
        throw error;
      }
      logger.warn?.('dcbkit: retrying', {
        method: request.method,
        path,
        error: error.name,
        code: codeOf(error),
        retry: retriesDone + 1,
        delayMs: decision.delayMs,
        why: decision.why,
      });
      await options.sleep(decision.delayMs);
      retriesDone++;
    }
  };

  type Outcome<T> =
    | { ok: true; value: T }
    | { ok: false; noAnswer: true; error: DcbNetworkError }
    | {
        ok: false;
        noAnswer: false;
        error: Error;
        httpStatus: number;
        retryable: boolean | undefined;
        retryAfterMs: number | undefined;
      };

  async function attempt<T>(
    request: PlannedRequest<T>,
    headers: Record<string, string>,
    path: string,
  ): Promise<Outcome<T>> {
    const httpRequest: HttpRequest = { method: request.method, target: request.target, headers };
    if (request.body !== undefined) httpRequest.body = request.body;
    let answer: HttpAnswer;
    try {
      answer = await sendOnce(options, httpRequest);
    } catch (error) {
      if (error instanceof DcbNetworkError) return { ok: false, noAnswer: true, error };
      throw error;
    }
    logger.debug?.('dcbkit: answer', { method: request.method, path, status: answer.status });
    const reading = request.read(answer, { method: request.method, path, nowMs: options.nowMs() });
    if (reading.ok) return reading;
    return {
      ok: false,
      noAnswer: false,
      error: reading.error,
      httpStatus: answer.status,
      retryable: reading.retryable,
      retryAfterMs: reading.retryAfterMs,
    };
  }
}

function codeOf(error: Error): string | undefined {
  return 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
