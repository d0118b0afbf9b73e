import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RouteName, routeOf, type TrafficLog } from './traffic.js';

export interface ShopProxy {
  url: string;
  /** While on, the webhook route answers 503 as a load balancer does in front of an app that is down. */
  setWebhookOutage(on: boolean): void;
  close(): Promise<void>;
}

/**
 * A round-robin proxy on node's own http module. Not http-proxy: its last release is from 2020,
 * and the soak needs what it leaves to the caller anyway: the request body buffered, so that a
 * request refused by a dead instance (connection refused: nothing reached it) is sent to the next
 * one, as nginx's `proxy_next_upstream error` does; and only to instances that are ready (see
 * ShopInstance.ready), as behind an orchestrator's readiness probes. A request an instance was killed in the middle
 * of is not retried (it may have been processed): the client gets 502, counted and explained.
 * Every answer is logged with its route, status, time and instance.
 */
export async function startProxy(
  upstreams: readonly { port: number; ready: boolean }[],
  traffic: TrafficLog,
): Promise<ShopProxy> {
  let next = 0;
  let outage = false;
  const server: Server = createServer((incoming, outgoing) => {
    const started = performance.now();
    const route = routeOf(incoming.method ?? 'GET', incoming.url ?? '/');
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const finish = (status: number, instance: number | null, text: string | null) =>
        traffic.record({ route, status, ms: performance.now() - started, instance, body: text });
      if (outage && route === 'webhook') {
        outgoing.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '60' });
        outgoing.end('soak: webhook outage');
        finish(503, null, 'soak: webhook outage');
        return;
      }
      const first = next++ % upstreams.length;
      const attempt = (tries: number) => {
        const index = (first + tries) % upstreams.length;
        // Only instances that finished starting, as a load balancer behind readiness probes does.
        if (!upstreams[index]?.ready && tries + 1 < upstreams.length) {
          attempt(tries + 1);
          return;
        }
        const upstream = httpRequest(
          {
            host: '127.0.0.1',
            port: upstreams[index]?.port,
            method: incoming.method,
            path: incoming.url,
            headers: { ...incoming.headers, 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'http' },
            agent: false,
          },
          (answer: IncomingMessage) => {
            const status = answer.statusCode ?? 502;
            outgoing.writeHead(status, answer.headers);
            const kept: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => {
              if (status >= 500) kept.push(chunk);
              outgoing.write(chunk);
            });
            answer.on('end', () => {
              outgoing.end();
              finish(status, index, status >= 500 ? Buffer.concat(kept).toString().slice(0, 300) : null);
            });
            answer.on('error', () => {
              outgoing.destroy();
              finish(502, index, 'soak proxy: instance died while answering');
            });
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED' && tries + 1 < upstreams.length) {
            attempt(tries + 1);
            return;
          }
          const why =
            error.code === 'ECONNREFUSED'
              ? 'soak proxy: every instance refused the connection'
              : `soak proxy: instance died mid-request (${error.code ?? error.message})`;
          if (!outgoing.headersSent) {
            outgoing.writeHead(502, { 'content-type': 'text/plain' });
            outgoing.end(why);
          } else outgoing.destroy();
          finish(502, index, why);
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setWebhookOutage(on) {
      outage = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type { RouteName };
