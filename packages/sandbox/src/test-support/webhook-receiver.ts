import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEvent } from '@dcbkit/core';
import { SIGNATURE_HEADER, verifyWebhook } from '@dcbkit/core/webhooks';

/** One POST the receiver got, with the exact bytes and what it answered. */
export interface ReceivedWebhook {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  answer: number | 'hang';
}

/** What the receiver does with its n-th request (1-based): answer a status, or never answer. */
export type ReceiverBehaviour = (requestNumber: number) => number | 'hang';

export interface WebhookReceiverOptions {
  /**
   * Verify every request with core's verifyWebhook and this secret, and answer 400 to one that
   * fails (a stale timestamp, say), as a partner's receiver does.
   */
  verifyWith?: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Verifies every received webhook with core's verifyWebhook and returns the events, in arrival order. */
  verifiedEvents(secret: string): WebhookEvent[];
  /** The events of the requests answered 2xx, verified, in arrival order. */
  acceptedEvents(secret: string): WebhookEvent[];
  close(): Promise<void>;
}

/** A partner's webhook endpoint on 127.0.0.1, for tests. */
export async function startWebhookReceiver(
  behaviour: ReceiverBehaviour = () => 200,
  options: WebhookReceiverOptions = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const verifies = (rawBody: Buffer, headers: IncomingHttpHeaders): boolean => {
    if (options.verifyWith === undefined) return true;
    try {
      verifyWebhook({ rawBody, signature: headers[SIGNATURE_HEADER], secrets: options.verifyWith });
      return true;
    } catch {
      return false;
    }
  };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const copy: ReceivedWebhook = { rawBody, headers: request.headers, answer: 400 };
    received.push(copy);
    copy.answer = verifies(rawBody, request.headers) ? behaviour(received.length) : 400;
    if (copy.answer === 'hang') return;
    response.writeHead(copy.answer, { 'content-type': 'text/plain' });
    response.end(copy.answer >= 200 && copy.answer < 300 ? 'ok' : `refused with ${copy.answer}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const verify = (copies: ReceivedWebhook[], secret: string) =>
    copies.map(({ rawBody, headers }) =>
      verifyWebhook({ rawBody, signature: headers[SIGNATURE_HEADER], secrets: secret }),
    );
  return {
    url: `http://127.0.0.1:${port}/webhooks/dcb`,
    received,
    verifiedEvents: (secret) => verify(received, secret),
    acceptedEvents: (secret) =>
      verify(
        received.filter((copy) => copy.answer !== 'hang' && copy.answer >= 200 && copy.answer < 300),
        secret,
      ),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
