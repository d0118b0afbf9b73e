import type { IncomingMessage } from 'node:http';
import type { DcbError } from '../errors/dcb-error.js';
import { type RawBodyErrorCode, rawBodyError } from '../http/body-error.js';
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from '../http/limits.js';
import { clearBodyDeadline, startBodyDeadline } from './body-deadlines.js';

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

// Before answering 413, read (and drop) what the sender is still writing, up to this much and
// this long: a sender that is still writing when the socket closes (Connection: close) gets
// EPIPE or a reset instead of the 413. Past either bound, or once the sender pauses, the answer
// goes out anyway. A pause is a second: a sender on a busy host (or a busy event loop here) stalls
// for a few hundred milliseconds between pieces, and 250 ms cut such senders off with a reset.
const DRAIN_MS = 5_000;
const DRAIN_IDLE_MS = 1_000;
const DRAIN_MAX_BYTES = 8 * 1024 * 1024;

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
    return drain(req).then(() => Promise.reject(tooLarge(maxBytes)));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const deadline = startBodyDeadline(timeoutMs, () =>
      fail(rawBodyError('body_timeout', `The request body did not arrive within ${timeoutMs} ms.`)),
    );
    const fail = (error: DcbError<RawBodyErrorCode>) => {
      if (settled) return;
      settled = true;
      clearBodyDeadline(deadline);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (error.code === 'body_too_large') {
        drain(req).then(() => reject(error));
        return;
      }
      // A slow sender is not waited for any longer: stop reading; the 408 goes out with Connection: close.
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > maxBytes) return fail(tooLarge(maxBytes));
      chunks.push(chunk);
    };
    // On success the listeners stay on the request, which is dropped once answered: no data comes
    // after 'end', 'close' then finds it complete, and `settled` makes a late error a no-op. Taking
    // four listeners off every request was part of the body read's cost (issue 29).
    const onEnd = () => {
      if (settled) return;
      settled = true;
      clearBodyDeadline(deadline);
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

/**
 * Reads and drops the rest of a refused body; resolves once it ended, or the connection closed,
 * or a bound was reached (then reading stops, and the answer closes the connection).
 */
function drain(req: IncomingMessage): Promise<void> {
  if (req.complete) return Promise.resolve();
  return new Promise((resolve) => {
    let dropped = 0;
    const stop = () => {
      req.pause();
      done();
    };
    const done = () => {
      clearTimeout(timer);
      clearTimeout(idle);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.byteLength;
      if (dropped > DRAIN_MAX_BYTES) stop();
      else idle.refresh();
    };
    const timer = setTimeout(stop, DRAIN_MS);
    const idle = setTimeout(stop, DRAIN_IDLE_MS);
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

function tooLarge(maxBytes: number): DcbError<RawBodyErrorCode> {
  return rawBodyError('body_too_large', `The request body is larger than ${maxBytes} bytes.`);
}
