import type { IncomingMessage } from 'node:http';
import type { Reply } from './reply.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Everything a route handler gets about a request. The body is read only for methods that carry one. */
export interface RouteRequest {
  method: string;
  url: URL;
  params: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type RouteHandler = (request: RouteRequest) => Reply | Promise<Reply>;

interface Route {
  method: HttpMethod;
  segments: string[];
  handler: RouteHandler;
}

export type RouteMatch =
  | { kind: 'found'; handler: RouteHandler; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: HttpMethod[] }
  | { kind: 'not-found' };

/**
 * A path router for the sandbox's few dozen routes: `/v1/payments/:paymentUid` style patterns,
 * exact segments, no wildcards. A linear scan is plenty at this size.
 */
export class Router {
  private readonly routes: Route[] = [];

  add(method: HttpMethod, pattern: string, handler: RouteHandler): this {
    this.routes.push({ method, segments: splitPath(pattern), handler });
    return this;
  }

  match(method: string, pathname: string): RouteMatch {
    const segments = splitPath(pathname);
    const allow: HttpMethod[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) {
        return { kind: 'found', handler: route.handler, params };
      }
      allow.push(route.method);
    }
    return allow.length > 0 ? { kind: 'method-not-allowed', allow } : { kind: 'not-found' };
  }
}

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    const segment = actual[i] as string;
    if (expected.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      params[expected.slice(1)] = decoded;
    } else if (expected !== segment) {
      return undefined;
    }
  }
  return params;
}
