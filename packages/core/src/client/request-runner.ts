import type { RequestOptions, ResolvedClientOptions } from './client-options.js';
import { DcbApiError } from './errors.js';
import { pathOf } from './http-transport.js';
import type { PlannedRequest } from './planned-request.js';
import { decideRetry } from './retry-policy.js';
import { attemptFailureOf, sendAttempt } from './send-attempt.js';
import { untilAborted } from './until-aborted.js';

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
      const outcome = await sendAttempt(options, request, headers, path, call);
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
      const decision = decideRetry(attemptFailureOf(outcome), {
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
}

function codeOf(error: Error): string | undefined {
  return 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
