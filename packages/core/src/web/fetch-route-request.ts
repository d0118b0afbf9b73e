import { firstOfEach } from '../routes/route-fields.js';
import {
  type PartnerAction,
  type PartnerRouteOutcome,
  type RouteCaller,
  type RouteRequest,
  runRouteRequest,
} from '../routes/run-route-request.js';
import { readRequestBody } from './read-request-body.js';

export interface FetchRouteParts {
  /** The route's params, as your router matched them (`{ subscriptionUid }`). */
  params?: Readonly<Record<string, string>> | undefined;
  /** The body, when your framework already parsed it (a form or JSON object); else the request's is read. */
  parsedBody?: unknown;
}

let decoder: { decode(bytes: Uint8Array): string } | undefined;

/** A fetch Request as the partner routes read it (routes/run-route-request.ts decides the rest). */
export function fetchRouteRequest(request: Request, parts: FetchRouteParts = {}): RouteRequest {
  return {
    method: request.method,
    header: (name) => request.headers.get(name) ?? undefined,
    // Read only for a GET or HEAD: parsed then, not for every POST.
    get query() {
      return firstOfEach(new URL(request.url).searchParams);
    },
    params: parts.params,
    parsedBody: parts.parsedBody,
    async readBodyText(maxBytes) {
      if (request.bodyUsed) return undefined;
      // ignoreBOM: a leading BOM stays in the text, as Node's Buffer decoding leaves it.
      decoder ??= new TextDecoder('utf-8', { ignoreBOM: true });
      return decoder.decode(await readRequestBody(request, { maxBytes }));
    },
  };
}

/**
 * One partner route on a fetch Request, for an adapter that has its own way to name the account
 * (a framework's context): collects the fields, runs the route for the caller, and gives the
 * answer, with the view or the refusal for an app that renders its own pages. Any error other than
 * a refusal is thrown, for the app's own error handling. createFetchRoutes is built on it.
 *
 * @example
 * const outcome = await runFetchRoute(kit.routes.checkout, c.req.raw, { accountKey: c.get('userId') });
 * return responseOf(outcome.answer);
 */
export function runFetchRoute(
  action: PartnerAction,
  request: Request,
  caller: RouteCaller & FetchRouteParts,
): Promise<PartnerRouteOutcome> {
  return runRouteRequest(action, fetchRouteRequest(request, caller), caller);
}
