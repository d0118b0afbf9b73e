import { type DestinationStream, pino } from 'pino';
import { logDestination } from './log-destination.js';

/**
 * One logger for the shop and the kit (pino plugs into createDcbKit as it is). Cookies,
 * authorization and webhook signature headers are replaced by "[redacted]": a session cookie or a
 * token in a log is a session or a token anyone reading the log can use. Readable lines in a
 * terminal, JSON lines otherwise (log-destination.ts).
 */
export function createLogger(level: string, destination: DestinationStream | undefined = logDestination()) {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.cookie',
          'req.headers.authorization',
          'req.headers["service-signature"]',
          'res.headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

export type ShopLogger = ReturnType<typeof createLogger>;
