import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ShopLogger } from './logger.js';

/**
 * One `request completed` line per request, when its response is sent (`request aborted` when the
 * browser left first): method, URL, status and time, which is what docs/going-live.md tells you to
 * watch for the webhook. Read from Node's own request and response, so every framework logs the
 * same line. No headers: the session cookie and a webhook's signature stay out of the log
 * (logger.ts redacts them too, should you add headers here), and the line stays short to read.
 */
export function logRequest(logger: ShopLogger, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  const { method, url } = req;
  res.once('close', () => {
    logger.info(
      {
        req: { method, url },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
      },
      res.writableFinished ? 'request completed' : 'request aborted',
    );
  });
}
