import { describe, expect, it } from 'vitest';
import { isDcbError } from '../errors/dcb-error.js';
import { readRequestBody } from './read-request-body.js';

const encoder = new TextEncoder();

/** A body streamed in `chunks`, one every `everyMs`; counts what was pulled and whether it was cancelled. */
function streamed(chunks: readonly string[], everyMs = 0) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (everyMs > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
      const chunk = chunks[seen.pulled];
      if (chunk === undefined) return controller.close();
      seen.pulled++;
      controller.enqueue(encoder.encode(chunk));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

function post(body: RequestInit['body'], headers: Record<string, string> = {}): Request {
  return new Request('https://shop.example/webhooks/dcb', {
    method: 'POST',
    body,
    headers,
    duplex: 'half',
  } as RequestInit);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isDcbError(error)) return error.code;
    throw error;
  }
  return 'read';
}

describe('readRequestBody', () => {
  it('reads the exact bytes, in one chunk or many', async () => {
    const text = '{"note":"café مرحبا 😀"}';
    expect(await readRequestBody(post(text))).toEqual(encoder.encode(text));
    const { stream } = streamed(['{"note":', '"café ', 'مرحبا 😀"}']);
    expect(new TextDecoder().decode(await readRequestBody(post(stream)))).toBe(text);
  });

  it('reads no body as no bytes', async () => {
    expect(await readRequestBody(new Request('https://shop.example/', { method: 'POST' }))).toEqual(
      new Uint8Array(0),
    );
  });

  it('refuses by the Content-Length before reading a byte, and cancels the stream', async () => {
    const { stream, seen } = streamed(['x'.repeat(10), 'x'.repeat(10)]);
    expect(await refusal(readRequestBody(post(stream, { 'content-length': '20' }), { maxBytes: 16 }))).toBe(
      'body_too_large',
    );
    expect(seen.pulled).toBe(0);
    expect(seen.cancelled).toBe(true);
  });

  it('refuses a stream as soon as it passes the limit, and cancels it', async () => {
    const { stream, seen } = streamed(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(10), 'x'.repeat(10)]);
    expect(await refusal(readRequestBody(post(stream), { maxBytes: 16 }))).toBe('body_too_large');
    // The chunk that passed the limit and at most the one the stream had queued: not the rest.
    expect(seen.pulled).toBeLessThanOrEqual(3);
    expect(seen.cancelled).toBe(true);
  });

  it('refuses a body dripping in slower than timeoutMs, in time, and cancels it', async () => {
    const { stream, seen } = streamed(['{', '"a"', ':', '1', '}'], 80);
    const started = Date.now();
    expect(await refusal(readRequestBody(post(stream), { timeoutMs: 150 }))).toBe('body_timeout');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(seen.cancelled).toBe(true);
  });

  it('refuses at once a body something already read', async () => {
    const request = post('{"a":1}');
    await request.json();
    expect(await refusal(readRequestBody(request))).toBe('body_consumed');
    const locked = post('{"a":1}');
    locked.body?.getReader();
    expect(await refusal(readRequestBody(locked))).toBe('body_consumed');
  });

  it('reports a stream that fails midway as incomplete', async () => {
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new Error('connection reset'));
        sent = true;
        controller.enqueue(encoder.encode('{"a":'));
      },
    });
    expect(await refusal(readRequestBody(post(stream)))).toBe('body_incomplete');
  });
});
