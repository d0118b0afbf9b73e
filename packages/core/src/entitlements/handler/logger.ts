/** Where the handler reports what the service is not told: refusals, misconfiguration, failures. */
export interface WebhookLogger {
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

export const consoleLogger: WebhookLogger = {
  warn: (message, details) => (details ? console.warn(message, details) : console.warn(message)),
  error: (message, details) => (details ? console.error(message, details) : console.error(message)),
};

/** An error's name and message for a log line; never its stack, never the request. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
