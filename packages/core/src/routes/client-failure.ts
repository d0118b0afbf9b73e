import { fromClientError, isMisconfiguration } from './from-client-error.js';
import type { RouteContext } from './route-context.js';

/**
 * What the client threw, as the route's answer. A misconfiguration is reported to `onError` every
 * time and logged at error level (with its fix, once a minute per code), then thrown on to the
 * app's error handler; an outage becomes a 502 for the subscriber and a warning in the log.
 */
export function throwClientFailure(
  context: RouteContext,
  error: unknown,
  route: string,
  notFound: string,
): never {
  if (isMisconfiguration(error)) {
    context.reportError(
      error,
      { source: 'route', route },
      `dcbkit: the billing service refused this app's setup: ${error.message}`,
      { log: context.logLimit(error.code) },
    );
    throw error;
  }
  const answer = fromClientError(error, notFound);
  if (answer.code === 'service_unavailable') {
    context.logger.warn?.(
      { err: answer.cause, route },
      'dcbkit: the billing service is unavailable; answered 502.',
    );
  }
  throw answer;
}
