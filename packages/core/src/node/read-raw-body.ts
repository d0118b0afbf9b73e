import type { IncomingMessage } from 'node:http';
import { RawBodyError } from './raw-body-error.js';

/** 1 MiB: webhook events are small JSON; anything larger is not from the service. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface RawBodySource {
  /** The Node request. Express's `req`, Koa's `ctx.req`. */
  req: IncomingMessage;
  /**
   * Bytes a body parser already read and kept: Express `express.json({ verify })` storing
   * `req.rawBody`, `@koa/bodyparser`'s `ctx.request.rawBody`. Used as they are when present.
   */
  kept?: unknown;
  maxBytes?: number;
}

/**
 * The exact bytes of a request body, however the app is mounted: the kept bytes when a parser
 * left them, else the stream read to the end within `maxBytes`. Rejects with RawBodyError at
 * once, never hangs, when a parser consumed the stream and kept nothing: re-serialising its
 * parsed object would give other bytes and fail every signature.
 */
export async function getRawBody({
  req,
  kept,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
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
    throw new RawBodyError(
      'consumed',
      'The request body was already read by a body parser that did not keep the raw bytes.',
    );
  }
  return readStream(req, maxBytes);
}

function wasConsumed(req: IncomingMessage): boolean {
  // body-parser (Express) marks a parsed request with `_body`; any reader leaves readableDidRead set.
  return (
    (req as IncomingMessage & { _body?: unknown })._body === true || req.readableDidRead || req.readableEnded
  );
}

function readStream(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const fail = (error: RawBodyError) => {
      cleanup();
      // Stop reading but leave the socket open so that the answer (413) can still be written.
      req.pause();
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
      fail(new RawBodyError('aborted', 'The request body could not be read.', { cause }));
    const onClose = () => {
      if (!req.complete)
        fail(new RawBodyError('aborted', 'The client closed the connection before the body was complete.'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function tooLarge(maxBytes: number): RawBodyError {
  return new RawBodyError('too_large', `The request body is larger than ${maxBytes} bytes.`);
}
