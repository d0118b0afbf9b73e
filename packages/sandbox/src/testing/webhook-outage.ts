import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A stand-in for the app's webhook route while the app is down: every attempt fails. */
export interface WebhookOutage {
  url: string;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 and answers 503 to everything, as a load balancer does in front of an app
 * that is down. The sandbox posts here for a while, so the app's events of that time are retried,
 * dead-lettered, then replayed to the app late.
 */
export async function startWebhookOutage(): Promise<WebhookOutage> {
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '60' });
    response.end('The partner check is holding this webhook back: the app is "down".');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/outage`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
