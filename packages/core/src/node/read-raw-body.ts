import type { IncomingMessage } from 'node:http';
import type { DcbError } from '../errors/dcb-error.js';
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from '../http/limits.js';
import { type RawBodyErrorCode, rawBodyError } from './raw-body-error.js';

export interface RawBodySource {
  /** The Node request. Express's `req`, Koa's `ctx.req`. */
  req: IncomingMessage;
  /**
   * Bytes a body parser already read and kept: Express `express.json({ verify })` storing
   * `req.rawBody`, `@koa/bodyparser`'s `ctx.request.rawBody`. Used as they are when present.
   */
  kept?: unknown;
  maxBytes?: number;
  /** How long the whole body may take to arrive. Default 10 000 ms: a body dripping in is refused (408). */
  timeoutMs?: number;
}

// After refusing a body as too large, keep reading (and dropping) what the sender is still
// writing for this long, so that it reads the 413 instead of failing with EPIPE.
const DRAIN_MS = 5_000;

/**
 * The exact bytes of a request body, however the app is mounted: the kept bytes when a parser
 * left them, else the stream read to the end within `maxBytes`. Rejects with a DcbError (`body_too_large`, `body_consumed`, `body_incomplete`) at
 * once, never hangs, when a parser consumed the stream and kept nothing: re-serialising its
 * parsed object would give other bytes and fail every signature.
 */
export async function getRawBody({
  req,
  kept,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
  timeoutMs = DEFAULT_BODY_TIMEOUT_MS,
}: RawBodySource): Promise<Buffer> {
  if (typeof kept === 'string' || kept instanceof Uint8Array) {
    const bytes =
      typeof kept === 'string'
        ? Buffer.from(kept, 'utf8')
        : Buffer.from(kept.buffer, kept.byteOffset, kept.byteLength);
    if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
    return bytes;
  }
  if (wasConsumed(req)) {
    throw rawBodyError(
      'body_consumed',
      'The request body was already read by a body parser that did not keep the raw bytes.',
    );
  }
  return readStream(req, maxBytes, timeoutMs);
}

function wasConsumed(req: IncomingMessage): boolean {
  // body-parser (Express) marks a parsed request with `_body`; any reader leaves readableDidRead set.
  return (
    (req as IncomingMessage & { _body?: unknown })._body === true || req.readableDidRead || req.readableEnded
  );
}

function readStream(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    drain(req);
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const timer = setTimeout(
      () => fail(rawBodyError('body_timeout', `The request body did not arrive within ${timeoutMs} ms.`)),
      timeoutMs,
    );
    const cleanup = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const fail = (error: DcbError<RawBodyErrorCode>) => {
      cleanup();
      if (error.code === 'body_too_large') drain(req);
      // A slow sender is not waited for any longer: stop reading; the 408 goes out with Connection: close.
      else req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > maxBytes) return fail(tooLarge(maxBytes));
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received));
    };
    const onError = (cause: unknown) =>
      fail(rawBodyError('body_incomplete', 'The request body could not be read.', cause));
    const onClose = () => {
      if (!req.complete)
        fail(
          rawBodyError('body_incomplete', 'The client closed the connection before the body was complete.'),
        );
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Reads and drops the rest of a refused body for a bounded time, then lets the socket go. */
function drain(req: IncomingMessage): void {
  const timer = setTimeout(() => req.destroy(), DRAIN_MS);
  timer.unref();
  req.on('data', () => {});
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

function tooLarge(maxBytes: number): DcbError<RawBodyErrorCode> {
  return rawBodyError('body_too_large', `The request body is larger than ${maxBytes} bytes.`);
}
