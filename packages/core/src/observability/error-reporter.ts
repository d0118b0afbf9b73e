import { isDcbError } from '../errors/dcb-error.js';
import type { DcbLogger } from './logger.js';

/** Where an error happened, for the `onError` hook and the log. */
export interface ErrorContext {
  /** `webhook`: the handler answered 5xx; `route`: a partner route failed; `startup`: checkConnection. */
  source: 'webhook' | 'route' | 'startup';
  /** The webhook event name, when the error is about one. */
  event?: string | undefined;
  /** The partner route, e.g. `checkout`. */
  route?: string | undefined;
}

/**
 * Your error tracker: called with the Error object itself (stack and `cause` kept) whenever the
 * webhook handler answers 5xx or a partner route fails for a reason other than the browser's
 * request. Never throws back into dcbkit: an exception here is logged and dropped.
 *
 * @example
 * onError: (error, context) => Sentry.captureException(error, { tags: context }),
 */
export type ErrorHook = (error: Error, context: ErrorContext) => void | Promise<void>;

/**
 * Logs an error with its object and stack, and hands it to the hook. `log: false` hands it to the
 * hook only: a caller that rate-limits its log line still reports every failure.
 */
export type ReportError = (
  error: unknown,
  context: ErrorContext,
  message: string,
  options?: { log?: boolean },
) => void;

export function createErrorReporter(logger: DcbLogger, onError: ErrorHook | undefined): ReportError {
  return (error, context, message, options) => {
    const err = error instanceof Error ? error : new Error(String(error));
    if (options?.log !== false) {
      logger.error?.({ err, code: isDcbError(err) ? err.code : undefined, ...context }, message);
    }
    if (onError === undefined) return;
    try {
      Promise.resolve(onError(err, context)).catch((hookError: unknown) =>
        logger.error?.({ err: hookError }, 'dcbkit: the onError hook failed'),
      );
    } catch (hookError) {
      logger.error?.({ err: hookError }, 'dcbkit: the onError hook failed');
    }
  };
}
