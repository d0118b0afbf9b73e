import { pinoHttp } from 'pino-http';
import type { ShopLogger } from './logger.js';

/**
 * One log line per request ("request completed": method, path, status, milliseconds), the line
 * going-live.md tells you to watch for the webhook, and `req.log` for the routes. No headers: the
 * session cookie and a webhook's signature stay out of the log (logger.ts redacts them too, should
 * you add headers here), and the line stays short enough to read.
 */
export function requestLog(logger: ShopLogger) {
  return pinoHttp({
    logger,
    serializers: {
      req: (req: { id?: unknown; method?: string; url?: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
