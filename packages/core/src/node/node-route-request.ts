import type { IncomingMessage } from 'node:http';
import type { RouteRequest } from '../routes/run-route-request.js';
import { getRawBody } from './read-raw-body.js';

export interface FieldSources {
  req: IncomingMessage;
  /** The query string, as the framework parsed it. */
  query?: Readonly<Record<string, unknown>>;
  /** The body, when the app's own body parser already parsed it (`req.body`, `ctx.request.body`). */
  parsedBody?: unknown;
  /** Route parameters (`/subscriptions/:subscriptionUid/cancel`). */
  params?: Readonly<Record<string, unknown>>;
}

/** A Node request as the partner routes read it (routes/run-route-request.ts decides the rest). */
export function nodeRouteRequest({ req, query, parsedBody, params }: FieldSources): RouteRequest {
  return {
    method: req.method,
    header: (name) => firstHeader(req.headers[name]),
    query,
    params,
    parsedBody,
    async readBodyText(maxBytes) {
      // A parser that read the stream without handing over its fields (another body type) leaves none.
      if (req.readableEnded || req.readableDidRead) return undefined;
      return (await getRawBody({ req, maxBytes })).toString('utf8');
    },
  };
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
