import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isDcbError } from '../errors/dcb-error.js';
import { getRawBody, type RawBodySource } from './read-raw-body.js';

type Outcome = { bytes: Buffer } | { reason: string };

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Starts a loopback server whose every request goes through `prepare` then getRawBody. */
async function serve(
  prepare: (req: IncomingMessage) => Promise<Omit<RawBodySource, 'req'>> | Omit<RawBodySource, 'req'>,
) {
  const outcomes: Outcome[] = [];
  let notify: (() => void) | undefined;
  server = createServer(async (req, res) => {
    try {
      const bytes = await getRawBody({ req, ...(await prepare(req)) });
      outcomes.push({ bytes });
      res.end('ok');
    } catch (error) {
      outcomes.push({ reason: isDcbError(error) ? error.code : String(error) });
      // As a refusal goes out in production: the connection closes after it.
      res.writeHead(400, { connection: 'close' });
      res.end('no');
    }
    notify?.();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const next = () =>
    new Promise<Outcome>((resolve) => {
      if (outcomes.length > 0) return resolve(outcomes.shift() as Outcome);
      notify = () => resolve(outcomes.shift() as Outcome);
    });
  return { url: `http://127.0.0.1:${port}/`, port, next };
}

const body = Buffer.from(JSON.stringify({ event: 'payment.succeeded', note: 'café مرحبا 😀' }));

describe('getRawBody', () => {
  it('reads the exact bytes from an untouched stream', async () => {
    const { url, next } = await serve(() => ({}));
    await fetch(url, { method: 'POST', body });
    expect(await next()).toEqual({ bytes: body });
  });

  it('uses bytes a parser kept, as a Buffer or as a string', async () => {
    const { url, next } = await serve(async (req) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      return { kept: req.headers['x-keep'] === 'string' ? bytes.toString('utf8') : bytes };
    });
    await fetch(url, { method: 'POST', body, headers: { 'x-keep': 'buffer' } });
    expect(await next()).toEqual({ bytes: body });
    await fetch(url, { method: 'POST', body, headers: { 'x-keep': 'string' } });
    expect(await next()).toEqual({ bytes: body });
  });

  it('refuses at once when a parser consumed the stream and kept nothing', async () => {
    const { url, next } = await serve(async (req) => {
      for await (const _chunk of req) {
        // a JSON parser reading the body and keeping only its parsed object
      }
      return {};
    });
    await fetch(url, { method: 'POST', body });
    expect(await next()).toEqual({ reason: 'body_consumed' });
  });

  it('refuses a body above the limit by its declared length or as it streams', async () => {
    const { url, port, next } = await serve(() => ({ maxBytes: 16 }));
    const declared = await fetch(url, { method: 'POST', body });
    expect(declared.status).toBe(400);
    expect(await next()).toEqual({ reason: 'body_too_large' });

    const chunked = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      headers: { 'transfer-encoding': 'chunked' },
    });
    chunked.on('error', () => {});
    chunked.write(body.subarray(0, 10));
    chunked.write(body.subarray(10, 30));
    expect(await next()).toEqual({ reason: 'body_too_large' });
    chunked.destroy();
  });

  it('refuses kept bytes above the limit', async () => {
    const { url, next } = await serve(() => ({ kept: 'x'.repeat(17), maxBytes: 16 }));
    await fetch(url, { method: 'POST', body: 'x' });
    expect(await next()).toEqual({ reason: 'body_too_large' });
  });

  it('reports a client that goes away mid-body as aborted', async () => {
    const { port, next } = await serve(() => ({}));
    const partial = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      headers: { 'content-length': '1000' },
    });
    partial.on('error', () => {});
    partial.write(body.subarray(0, 10));
    setTimeout(() => partial.destroy(), 50);
    expect(await next()).toEqual({ reason: 'body_incomplete' });
  });
});

describe('getRawBody: senders that do not finish', () => {
  it('refuses a body dripping in slower than timeoutMs as body_timeout', async () => {
    const { port, next } = await serve(() => ({ timeoutMs: 200 }));
    const drip = request({ host: '127.0.0.1', port, method: 'POST', headers: { 'content-length': '100' } });
    drip.on('error', () => {});
    drip.write('{');
    const started = Date.now();
    expect(await next()).toEqual({ reason: 'body_timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
    drip.destroy();
  });

  it('lets the sender of a too-large body read the refusal, every time', async () => {
    const { port, next } = await serve(() => ({ maxBytes: 1024 }));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    /** Streams 4 MiB in chunks, as a sender that does not wait for an early answer. */
    const send = () =>
      new Promise<number | string>((resolve) => {
        const req = request({
          host: '127.0.0.1',
          port,
          method: 'POST',
          headers: { 'content-length': String(64 * chunk.length) },
        });
        req.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        req.on('error', (error) => resolve(`failed: ${error.message}`));
        let written = 0;
        const write = () => {
          while (written < 64) {
            written++;
            if (!req.write(chunk)) {
              req.once('drain', write);
              return;
            }
          }
          req.end();
        };
        write();
      });
    const statuses = await Promise.all(Array.from({ length: 20 }, send));
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 400));
    for (let i = 0; i < 20; i++) expect(await next()).toEqual({ reason: 'body_too_large' });
  });
});

describe('getRawBody: a refused oversize body on Connection: close', () => {
  /**
   * Sends the whole body, then reads the answer, as many HTTP clients do (Python's http.client,
   * curl without Expect): an error while writing means it never reads the answer.
   */
  async function sendOversize(port: number, size: number, chunked: boolean): Promise<string> {
    const { connect } = await import('node:net');
    return new Promise((resolve) => {
      // allowHalfOpen: keeps writing after the server's FIN, as a client that reads only at the end.
      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      let answer = '';
      let finishedWriting = false;
      socket.on('data', (chunk) => {
        answer += chunk.toString('latin1');
      });
      socket.on('error', (error) => {
        const code = (error as NodeJS.ErrnoException).code;
        resolve(finishedWriting ? answer || `error ${code}` : `error while writing: ${code}`);
      });
      socket.on('close', () => resolve(answer));
      const length = chunked ? 'transfer-encoding: chunked' : `content-length: ${size}`;
      socket.write(`POST / HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n${length}\r\n\r\n`);
      const piece = Buffer.alloc(64 * 1024, 0x61);
      const frame = chunked
        ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
        : piece;
      // A piece every few milliseconds, as a sender on a real network: still writing when an
      // early answer would go out.
      let sent = 0;
      const write = () => {
        if (socket.destroyed) return;
        if (sent >= size) {
          socket.end(chunked ? '0\r\n\r\n' : '', () => {
            finishedWriting = true;
          });
          return;
        }
        sent += piece.length;
        socket.write(frame, () => setTimeout(write, 3));
      };
      write();
    });
  }

  it.each([false, true])('lets the sender read the refusal every time (chunked: %s)', async (chunked) => {
    const { port, next } = await serve(() => ({ maxBytes: 1024 }));
    let answered = 0;
    for (let i = 0; i < 40; i++) {
      const answer = await sendOversize(port, 1024 * 1024, chunked);
      if (answer.startsWith('HTTP/1.1 400')) answered++;
      expect(await next()).toEqual({ reason: 'body_too_large' });
    }
    expect(answered).toBe(40);
  });
});
