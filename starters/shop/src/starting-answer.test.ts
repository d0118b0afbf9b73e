import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerWhileStarting } from './starting-answer.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function listening(): Promise<{ server: Server; url: string }> {
  const started = createServer();
  server = started;
  await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', () => resolve()));
  return { server: started, url: `http://127.0.0.1:${(started.address() as AddressInfo).port}` };
}

describe('a request that arrives while the shop starts', () => {
  it('is answered 503 with Retry-After, not left waiting, then the app answers once attached', async () => {
    const { server: starting, url } = await listening();
    const attach = answerWhileStarting(starting);
    const early = await fetch(`${url}/webhooks/dcb`, {
      method: 'POST',
      body: '{}',
      signal: AbortSignal.timeout(2_000),
    });
    expect(early.status).toBe(503);
    expect(early.headers.get('retry-after')).toBe('5');

    attach((_request, response) => response.end('the app'));
    const later = await fetch(`${url}/`, { signal: AbortSignal.timeout(2_000) });
    expect(later.status).toBe(200);
    expect(await later.text()).toBe('the app');
  });
});
