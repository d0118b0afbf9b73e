import type { RequestListener, Server } from 'node:http';

/** How long a client is told to wait: a start takes a few seconds (the store's migrations, the service's check). */
const RETRY_AFTER_SECONDS = 5;

/**
 * Answers every request 503 (with Retry-After) until `attach(app)` hands the server to the app.
 * The shop listens before it starts billing (the return URL and the embedded sandbox's webhook URL
 * need the port), and node's server accepts a request that no listener answers: without this, a
 * request arriving while the shop starts (a load balancer without readiness probes, the service's
 * webhook, a reload during a restart) waits until the client gives up. bench/soak saw one wait
 * three minutes behind a plain round-robin proxy.
 */
export function answerWhileStarting(server: Server): (app: RequestListener) => void {
  const starting: RequestListener = (request, response) => {
    request.resume();
    response.writeHead(503, {
      'content-type': 'text/plain; charset=utf-8',
      'retry-after': String(RETRY_AFTER_SECONDS),
      'cache-control': 'no-store',
    });
    response.end('The shop is starting; try again in a few seconds.\n');
  };
  server.on('request', starting);
  return (app) => {
    server.off('request', starting);
    server.on('request', app);
  };
}
