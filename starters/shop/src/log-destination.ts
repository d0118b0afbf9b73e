import type { DestinationStream } from 'pino';
import pretty from 'pino-pretty';

/**
 * Where the log goes: JSON lines on stdout for a log collector, unless stdout is a terminal, where
 * a person reads it: one short line per entry, `[12:04:31.207] INFO: GET /account 200 in 3 ms`.
 */
export function logDestination(): DestinationStream | undefined {
  return process.stdout.isTTY ? readableLog({ colorize: true }) : undefined;
}

export interface ReadableLogOptions {
  colorize: boolean;
  /** Default: stdout. */
  destination?: NodeJS.WritableStream;
}

/** The terminal's format (pino-pretty), written synchronously so that nothing is lost at exit. */
export function readableLog({ colorize, destination }: ReadableLogOptions): DestinationStream {
  return pretty({
    colorize,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // Said in the message line instead (below); an error's stack still prints under its line.
    ignore: 'pid,hostname,req,res,responseTime,sandbox',
    messageFormat: (log, messageKey) => oneLine(log, String(log[messageKey] ?? '')),
    ...(destination ? { destination } : {}),
  });
}

function oneLine(log: Record<string, unknown>, message: string): string {
  if (log.sandbox === true) return `sandbox: ${message}`;
  const req = log.req as { method?: unknown; url?: unknown } | undefined;
  if (typeof req?.method !== 'string') return message;
  const request = `${req.method} ${String(req.url)}`;
  const res = log.res as { statusCode?: unknown } | undefined;
  if (message === 'request completed' && res?.statusCode !== undefined) {
    return `${request} ${String(res.statusCode)} in ${String(log.responseTime)} ms`;
  }
  return `${message}: ${request}`;
}
