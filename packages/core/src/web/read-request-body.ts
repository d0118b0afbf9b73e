import type { DcbError } from '../errors/dcb-error.js';
import { type RawBodyErrorCode, rawBodyError } from '../http/body-error.js';
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from '../http/limits.js';

export interface RequestBodyLimits {
  /** Larger bodies are refused (`body_too_large`), by their Content-Length before any byte is read. Default 1 MiB. */
  maxBytes?: number;
  /** How long the whole body may take to arrive (`body_timeout` after). Default 10 000 ms. */
  timeoutMs?: number;
}

/**
 * The exact bytes of a fetch Request's body, within limits, on any runtime. Rejects with a
 * DcbError of the `body` group, never hangs: `body_consumed` at once when something already read
 * the body (`request.bodyUsed`), `body_too_large` on the Content-Length or as soon as the stream
 * passes `maxBytes`, `body_timeout` when it drips in slower than `timeoutMs`, `body_incomplete` when
 * the stream fails. A refused stream is cancelled: the runtime stops receiving it.
 */
export async function readRequestBody(
  request: Request,
  { maxBytes = DEFAULT_MAX_BODY_BYTES, timeoutMs = DEFAULT_BODY_TIMEOUT_MS }: RequestBodyLimits = {},
): Promise<Uint8Array> {
  const { body } = request;
  if (request.bodyUsed || body?.locked) {
    throw rawBodyError(
      'body_consumed',
      'The request body was already read (request.bodyUsed) by code that did not keep the bytes.',
    );
  }
  if (body === null) return new Uint8Array(0);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.cancel().catch(ignore);
    throw tooLarge(maxBytes);
  }
  return readStream(body.getReader(), maxBytes, timeoutMs);
}

async function readStream(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  timeoutMs: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  let timedOut = false;
  // A timer per read, not node/body-deadlines.ts's shared interval: an edge runtime ties a timer to
  // the request that set it, so one shared across requests could die with the first.
  const timer = setTimeout(() => {
    timedOut = true;
    // Settles the pending read as done; the flag tells it apart from the body's end.
    reader.cancel().catch(ignore);
  }, timeoutMs);
  try {
    for (;;) {
      let step: Awaited<ReturnType<typeof reader.read>>;
      try {
        step = await reader.read();
      } catch (cause) {
        if (timedOut) throw timeout(timeoutMs);
        throw rawBodyError('body_incomplete', 'The request body could not be read.', cause);
      }
      if (timedOut) throw timeout(timeoutMs);
      if (step.done) return joined(chunks, received);
      received += step.value.byteLength;
      if (received > maxBytes) {
        reader.cancel().catch(ignore);
        throw tooLarge(maxBytes);
      }
      chunks.push(step.value);
    }
  } finally {
    clearTimeout(timer);
  }
}

function joined(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function ignore(): void {}

function tooLarge(maxBytes: number): DcbError<RawBodyErrorCode> {
  return rawBodyError('body_too_large', `The request body is larger than ${maxBytes} bytes.`);
}

function timeout(timeoutMs: number): DcbError<RawBodyErrorCode> {
  return rawBodyError('body_timeout', `The request body did not arrive within ${timeoutMs} ms.`);
}
