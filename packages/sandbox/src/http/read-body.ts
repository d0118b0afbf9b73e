import type { IncomingMessage } from 'node:http';

/** Larger bodies are refused: nothing the service accepts comes near it. */
export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/** Reads a request body to the end, refusing more than MAX_BODY_BYTES. */
export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > MAX_BODY_BYTES)
      throw new BodyTooLargeError(`Request body larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The media type of a request, lowercased, without parameters. */
export function mediaType(headers: IncomingMessage['headers']): string {
  return (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Parses an `application/x-www-form-urlencoded` body. */
export function parseForm(body: Buffer): URLSearchParams {
  return new URLSearchParams(body.toString('utf8'));
}
