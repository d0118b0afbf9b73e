/** Structured detail of a log line. Never a secret, a token or a request body. */
export type LogFields = Record<string, unknown>;

/** pino's calling convention: the fields first, then the message. */
export type LogFunction = (fields: LogFields, message: string) => void;

/**
 * Where every part of dcbkit (client, webhook handler, routes, adapters, stores) reports what
 * it does. A pino logger plugs in as it is (`logger: pino()`), with every field kept, and so
 * does any logger with pino's `(fields, message)` methods; every method is optional. Errors
 * travel under `err`, the key pino serialises with their stack.
 *
 * @example
 * import pino from 'pino';
 * const kit = createDcbKit({ ...configFromEnv(process.env), logger: pino() });
 */
export interface DcbLogger {
  debug?: LogFunction;
  info?: LogFunction;
  warn?: LogFunction;
  error?: LogFunction;
  /**
   * Whether a level is written (pino's own method). When present, dcbkit builds a line's fields
   * only for the levels it writes: pino's `debug` is always a function, a no-op above debug.
   */
  isLevelEnabled?: (level: 'debug' | 'info' | 'warn' | 'error') => boolean;
}

/** Whether `logger` writes debug lines: it has `debug`, and its level, when it says, lets it through. */
export function writesDebug(logger: DcbLogger): boolean {
  return logger.debug !== undefined && logger.isLevelEnabled?.('debug') !== false;
}

/** Writes warnings and errors to the console, message first; debug and info are left out. */
export const consoleLogger: DcbLogger = {
  warn: (fields, message) => console.warn(message, fields),
  error: (fields, message) => console.error(message, fields),
};

/** Says nothing. */
export const silentLogger: DcbLogger = {};
