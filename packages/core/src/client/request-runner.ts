import { DcbError, isDcbError } from '../errors/dcb-error.js';
import type { RequestOptions, ResolvedClientOptions } from './client-options.js';
import { DcbApiError } from './errors.js';
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

export type RequestRunner = <T>(
  request: PlannedRequest<T>,
  tokens?: TokenSource,
  call?: RequestOptions,
) => Promise<T>;

/** No answer came: the request may or may not have reached the service. */
function isNoAnswer(error: unknown): error is DcbError {
  return isDcbError(error, 'timeout') || isDcbError(error, 'service_unreachable');
}

/**
 * Sends planned requests with the client's retry rules (see retry-policy.ts) and, for
 * authenticated ones, one renewal of a token the service refused with ATH-002.
 */
export function createRequestRunner(options: ResolvedClientOptions): RequestRunner {
  const { logger } = options;
  return async function run<T>(
    request: PlannedRequest<T>,
    tokens?: TokenSource,
    call: RequestOptions = {},
  ): Promise<T> {
    const path = pathOf(request.target);
    if (call.signal?.aborted)
      return untilAborted(Promise.resolve(undefined as T), call.signal, request.method, path);
    let retriesDone = 0;
    let tokenRenewed = false;
    for (;;) {
      const token = tokens ? await untilAborted(tokens.get(), call.signal, request.method, path) : undefined;
      const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      const outcome = await attempt(request, headers, path, call);
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
        logger.info?.({ method: request.method, path }, 'dcbkit: access token refused; renewing it');
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
        logger.debug?.(
          { method: request.method, path, code: codeOf(error), retriesDone, why: decision.why },
          'dcbkit: request failed',
        );
        throw error;
      }
      logger.warn?.(
        {
          method: request.method,
          path,
          code: codeOf(error),
          retry: retriesDone + 1,
          delayMs: decision.delayMs,
          why: decision.why,
        },
        'dcbkit: retrying',
      );
      await untilAborted(options.sleep(decision.delayMs), call.signal, request.method, path);
      retriesDone++;
    }
  };

  type Outcome<T> =
    | { ok: true; value: T }
    | { ok: false; noAnswer: true; error: DcbError }
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
    call: RequestOptions,
  ): Promise<Outcome<T>> {
    const httpRequest: HttpRequest = { method: request.method, target: request.target, headers };
    if (request.body !== undefined) httpRequest.body = request.body;
    let answer: HttpAnswer;
    try {
      answer = await sendOnce(
        { ...options, timeoutMs: call.timeoutMs ?? options.timeoutMs, signal: call.signal },
        httpRequest,
      );
    } catch (error) {
      if (isNoAnswer(error)) return { ok: false, noAnswer: true, error };
      throw error;
    }
    logger.debug?.({ method: request.method, path, status: answer.status }, 'dcbkit: answer');
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

/** Waits for `promise`, or rejects with `aborted` as soon as the caller's signal fires. */
function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  method: string,
  path: string,
): Promise<T> {
  if (signal === undefined) return promise;
  const aborted = () =>
    new DcbError('aborted', `${method} ${path}: aborted by the caller's signal.`, {
      cause: signal.reason,
      details: { method, path },
    });
  // The work goes on (a shared token request serves other calls): its failure is theirs to see.
  promise.catch(() => {});
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
