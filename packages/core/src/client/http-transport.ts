import { DcbError } from '../errors/dcb-error.js';

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
  maxResponseBytes: number;
  /** The caller's signal: aborting it abandons the attempt. */
  signal?: AbortSignal | undefined;
}

/**
 * One attempt: send, then read the whole body, both within `timeoutMs` and at most
 * `maxResponseBytes`. A failure to get a complete answer becomes a DcbError (`timeout`,
 * `aborted`, `service_unreachable`, `response_too_large`); every answer, whatever its status, is returned.
 */
export async function sendOnce(options: TransportOptions, request: HttpRequest): Promise<HttpAnswer> {
  const where = `${request.method} ${pathOf(request.target)}`;
  const details = { method: request.method, path: pathOf(request.target) };
  if (options.signal?.aborted) throw abortedError(where, details, options.signal.reason);
  const controller = new AbortController();
  let stopped: 'timeout' | 'aborted' | undefined;
  const timer = setTimeout(() => {
    stopped = 'timeout';
    controller.abort();
  }, options.timeoutMs);
  const onAbort = () => {
    stopped ??= 'aborted';
    controller.abort();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
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
    const text = await readText(response, options.maxResponseBytes, where, details);
    return { status: response.status, headers: response.headers, body: parseBody(text) };
  } catch (cause) {
    if (cause instanceof DcbError) throw cause;
    if (stopped === 'timeout') {
      throw new DcbError('timeout', `${where}: no complete answer within ${options.timeoutMs} ms.`, {
        cause,
        details,
      });
    }
    if (stopped === 'aborted') throw abortedError(where, details, options.signal?.reason ?? cause);
    throw new DcbError(
      'service_unreachable',
      `${where}: could not reach ${options.baseUrl} (${describe(cause)}). Is the service (or the sandbox) running, and is the base URL right?`,
      { cause, details: { ...details, baseUrl: options.baseUrl } },
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** The body as text, refusing (and cancelling the stream) once it passes `maxBytes`. */
async function readText(
  response: Response,
  maxBytes: number,
  where: string,
  details: Record<string, unknown>,
): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(where, maxBytes, details);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(where, maxBytes, details);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, received).toString('utf8');
}

function tooLarge(where: string, maxBytes: number, details: Record<string, unknown>): DcbError {
  return new DcbError('response_too_large', `${where}: the answer is larger than ${maxBytes} bytes.`, {
    details,
  });
}

function abortedError(where: string, details: Record<string, unknown>, cause: unknown): DcbError {
  return new DcbError('aborted', `${where}: aborted by the caller's signal.`, { cause, details });
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
