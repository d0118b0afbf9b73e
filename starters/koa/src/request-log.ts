import type { Middleware } from 'koa';
import type { ShopLogger } from './logger.js';

/**
 * One log line per request ("request completed": method, path, status, milliseconds), the line
 * going-live.md tells you to watch for the webhook. No headers: the session cookie and a webhook's
 * signature stay out of the log (logger.ts redacts them too, should you add headers here).
 */
export function requestLog(logger: ShopLogger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info(
        {
          req: { method: ctx.method, url: ctx.originalUrl },
          res: { statusCode: ctx.status },
          responseTime: Math.round(performance.now() - started),
        },
        'request completed',
      );
    }
  };
}
