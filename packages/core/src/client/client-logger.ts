/** Structured detail of a log line: method, path, status, code, attempt, delayMs. Never a secret or a token. */
export type LogFields = Record<string, string | number | boolean | undefined>;

type LogMethod = (message: string, fields?: LogFields) => void;

/**
 * Where the client reports what it does. Every method is optional, so `console` fits as is; with
 * pino or winston, wrap it. The client secret, access tokens and request bodies are never passed.
 */
export interface ClientLogger {
  debug?: LogMethod;
  info?: LogMethod;
  warn?: LogMethod;
  error?: LogMethod;
}
