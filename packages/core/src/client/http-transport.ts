import { DcbNetworkError } from './errors.js';

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path and query below the base URL, e.g. `/v1/payments/pay_1`. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

export type AnswerBody = { json: true; value: unknown } | { json: false; text: string };

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: AnswerBody;
}

export interface TransportOptions {
  baseUrl: string;
  fetch: typeof fetch;
  timeoutMs: number;
}

/**
 * One attempt: send, then read the whole body, both within `timeoutMs`. Any failure to get a
 * complete answer becomes DcbNetworkError; every answer, whatever its status, is returned.
 */
export async function sendOnce(options: TransportOptions, request: HttpRequest): Promise<HttpAnswer> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  try {
    const response = await options.fetch(`${options.baseUrl}${request.target}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
      // A redirect is answered as is, never followed: following it would carry the credentials
      // or the bearer token to an address the partner did not configure.
      redirect: 'manual',
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: parseBody(text) };
  } catch (cause) {
    const where = `${request.method} ${pathOf(request.target)}`;
    if (timedOut) {
      throw new DcbNetworkError('timeout', {
        method: request.method,
        path: pathOf(request.target),
        message: `${where}: no complete answer within ${options.timeoutMs} ms.`,
        cause,
      });
    }
    throw new DcbNetworkError('connection', {
      method: request.method,
      path: pathOf(request.target),
      message: `${where}: the connection failed (${describe(cause)}).`,
      cause,
    });
  } finally {
    clearTimeout(timer);
  }
}

function parseBody(text: string): AnswerBody {
  try {
    return { json: true, value: JSON.parse(text) };
  } catch {
    return { json: false, text };
  }
}

export function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
  return `${cause.message}${inner}`;
}
