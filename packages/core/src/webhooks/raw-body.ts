export type RawBody = string | Uint8Array;

/**
 * A Uint8Array (a Buffer is one), from this realm or another: an edge runtime built on node:vm (the
 * Next.js Edge runtime) hands out bytes made outside the function's realm, for which
 * `instanceof Uint8Array` is false. The instanceof is tried first, as it is the cheap answer on Node.
 */
export function isBytes(value: unknown): value is Uint8Array {
  return (
    value instanceof Uint8Array ||
    (ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]')
  );
}

// Node, Bun and Deno have Buffer, whose utf8 decoding is the fastest there; an edge runtime may
// not, and TextDecoder is its standard equivalent. ignoreBOM keeps a leading BOM in the text as
// Buffer does, so both give JSON.parse the same string.
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
let decoder: { decode(bytes: Uint8Array): string } | undefined;

/** The body's text, decoded as UTF-8 (malformed sequences become U+FFFD, as in every decoder). */
export function rawBodyText(rawBody: RawBody): string {
  if (typeof rawBody === 'string') return rawBody;
  if (NodeBuffer !== undefined) {
    const buffer = NodeBuffer.isBuffer(rawBody)
      ? rawBody
      : NodeBuffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
    return buffer.toString('utf8');
  }
  decoder ??= new TextDecoder('utf-8', { ignoreBOM: true });
  return decoder.decode(rawBody);
}

let encoder: { encode(text: string): Uint8Array } | undefined;

/**
 * The body's size in bytes; 0 for anything that is not a body (verification refuses it). A string
 * counts as UTF-8, with Buffer where there is one (no copy), else TextEncoder (an edge runtime).
 */
export function rawBodyByteLength(rawBody: unknown): number {
  if (typeof rawBody === 'string') {
    if (NodeBuffer !== undefined) return NodeBuffer.byteLength(rawBody, 'utf8');
    encoder ??= new TextEncoder();
    return encoder.encode(rawBody).byteLength;
  }
  return isBytes(rawBody) ? rawBody.byteLength : 0;
}
