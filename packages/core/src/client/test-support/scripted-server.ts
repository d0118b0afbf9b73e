import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server that plays scripted answers, for testing the client against real
 * sockets: faults (429, PAY-104, 5xx), dropped connections and slow answers included.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Reply =
  | { status: number; json?: unknown; text?: string; headers?: Record<string, string> }
  /** Destroys the connection without answering. */
  | { drop: true }
  /** Gives `answer` after `delayMs` (or never, when the client gives up first). */
  | { delayMs: number; answer: Reply };

/** One reply for every request; a list played in order whose last entry repeats; or a function. */
export type Route = Reply | readonly Reply[] | ((request: RecordedRequest, nth: number) => Reply);

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>`: use as the client's baseUrl. */
  url: string;
  requests: RecordedRequest[];
  /** Requests received for `"METHOD /path"`. */
  to(route: string): RecordedRequest[];
  close(): Promise<void>;
}

/** Issues `tok_1`, `tok_2`, … for an hour each: the default token route. */
export const issueTokens: Route = (_request, nth) => tokenReply(`tok_${nth}`);

export function tokenReply(accessToken: string, expiresIn = 3600): Reply {
  return { status: 200, json: { access_token: accessToken, token_type: 'bearer', expires_in: expiresIn } };
}

export function ok(data: unknown, status = 200): Reply {
  return { status, json: { success: true, data } };
}

export function apiError(
  status: number,
  code: string,
  extra: { retryable?: boolean; retryAfterSeconds?: number; headers?: Record<string, string> } = {},
): Reply {
  const { headers, ...fields } = extra;
  const reply: Reply = {
    status,
    json: { success: false, error: { code, message: `scripted ${code}`, ...fields } },
  };
  return headers ? { ...reply, headers } : reply;
}

export async function startScriptedServer(routes: Record<string, Route>): Promise<ScriptedServer> {
  const table = new Map<string, Route>(Object.entries({ 'POST /oauth2/token': issueTokens, ...routes }));
  const requests: RecordedRequest[] = [];
  const counts = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const key = `${recorded.method} ${recorded.path}`;
      const nth = (counts.get(key) ?? 0) + 1;
      counts.set(key, nth);
      const route = table.get(key);
      if (route === undefined) {
        play({ status: 404, text: `unscripted route ${key}` }, res);
        return;
      }
      play(pick(route, recorded, nth), res);
    });
  });

  function play(reply: Reply, res: ServerResponse): void {
    if ('drop' in reply) {
      res.socket?.destroy();
      return;
    }
    if ('delayMs' in reply) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) play(reply.answer, res);
      }, reply.delayMs);
      timers.add(timer);
      return;
    }
    const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? '');
    const type = reply.json !== undefined ? 'application/json' : 'text/plain';
    res.writeHead(reply.status, { 'content-type': type, ...reply.headers });
    res.end(body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    to: (route) => requests.filter((r) => `${r.method} ${r.path}` === route),
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function pick(route: Route, request: RecordedRequest, nth: number): Reply {
  if (typeof route === 'function') return route(request, nth);
  if (isReplyList(route)) {
    const reply = route[Math.min(nth, route.length) - 1];
    if (reply === undefined) throw new Error('a scripted route needs at least one reply');
    return reply;
  }
  return route;
}

function isReplyList(route: Reply | readonly Reply[]): route is readonly Reply[] {
  return Array.isArray(route);
}
