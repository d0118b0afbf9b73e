import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, verifyWebhook, type WebhookEvent } from '@dcbkit/core';

/** One POST the receiver got, with the exact bytes. */
export interface ReceivedWebhook {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
}

/** What the receiver does with its n-th request (1-based): answer a status, or never answer. */
export type ReceiverBehaviour = (requestNumber: number) => number | 'hang';

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Verifies every received webhook with core's verifyWebhook and returns the events, in arrival order. */
  verifiedEvents(secret: string): WebhookEvent[];
  close(): Promise<void>;
}

/** A partner's webhook endpoint on 127.0.0.1, for tests. */
export async function startWebhookReceiver(
  behaviour: ReceiverBehaviour = () => 200,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    received.push({ rawBody: Buffer.concat(chunks), headers: request.headers });
    const answer = behaviour(received.length);
    if (answer === 'hang') return;
    response.writeHead(answer, { 'content-type': 'text/plain' });
    response.end(answer >= 200 && answer < 300 ? 'ok' : `refused with ${answer}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/dcb`,
    received,
    verifiedEvents: (secret) =>
      received.map(({ rawBody, headers }) =>
        verifyWebhook({ rawBody, signature: headers[SIGNATURE_HEADER], secrets: secret }),
      ),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
