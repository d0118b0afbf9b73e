import type { DcbError } from '../errors/dcb-error.js';
import { isRawBodyError } from '../http/body-error.js';
import type { HttpAnswer } from '../http/http-answer.js';
import type { RouteInput } from './partner-route-types.js';
import { answerForError, answerForResult } from './route-answers.js';
import { isRouteError, type RouteErrorCode, routeError } from './route-error.js';
import { fieldBodyTypeOf, isRecord, MAX_FORM_BYTES, parseFieldBody, routeFields } from './route-fields.js';
import type { RouteResult, RouteView } from './route-result.js';
import { requestOriginOf } from './same-origin.js';

// The one path from a request to a partner route's answer, for every adapter: node/ describes an
// IncomingMessage with a RouteRequest, web/ a fetch Request, and both end here.

/** One of the partner routes (checkout, return, cancel, resume), as an adapter runs it. */
export type PartnerAction = (input: RouteInput) => Promise<RouteResult>;

/**
 * What an adapter writes back: always an answer; for a view, also the view, and for a refusal,
 * also the error, for an app that renders its own pages.
 */
export type PartnerRouteOutcome = {
  answer: HttpAnswer;
  view?: RouteView;
  refusal?: DcbError<RouteErrorCode>;
  /** For a refusal the app renders itself: the answer's headers other than its body's type (Allow, Retry-After). */
  refusalHeaders?: Record<string, string>;
};

/** A partner route request as an adapter reads it from its server's request. */
export interface RouteRequest {
  method: string | undefined;
  /** A header's value by lowercase name (the first, when it came several times). */
  header(name: string): string | undefined;
  /** The query string's fields, as the framework parsed them; read for GET and HEAD only. */
  query?: unknown;
  /** The route's params (`/subscriptions/:subscriptionUid/cancel`). */
  params?: unknown;
  /** The body, when the app's own parser already parsed it (`req.body`, `ctx.request.body`). */
  parsedBody?: unknown;
  /**
   * The body as UTF-8 text, at most `maxBytes`; undefined when something else already read it.
   * Rejects with a DcbError of the `body` group when it cannot be read (too large, cut off, too slow).
   */
  readBodyText(maxBytes: number): Promise<string | undefined>;
}

/** Who is asking: the signed-in account, and the app's session id that form tokens are bound to. */
export interface RouteCaller {
  accountKey: string | undefined | Promise<string | undefined>;
  session?: string | undefined | Promise<string | undefined>;
}

/**
 * Runs one partner route for a request: collects the fields, runs the route for the caller, and
 * turns its result or its refusal into an answer. Only a GET or HEAD reads the query; any other
 * method goes to the route with its origin (Origin, Sec-Fetch-Site, a form's body type) for the
 * cross-site check, and the route refuses it unless it is a POST. Any error other than a refusal
 * is thrown, for the app's own error handling.
 */
export async function runRouteRequest(
  action: PartnerAction,
  request: RouteRequest,
  caller: RouteCaller,
): Promise<PartnerRouteOutcome> {
  try {
    const safe = isSafeMethod(request.method);
    const fields = routeFields({
      query: safe ? request.query : undefined,
      body: await bodyFieldsOf(request, safe),
      params: request.params,
    });
    const result = await action({
      accountKey: await caller.accountKey,
      fields,
      method: request.method,
      session: await caller.session,
      ...(safe ? {} : { request: requestOriginOf((name) => request.header(name)) }),
    });
    const answer = answerForResult(result);
    return result.type === 'view' ? { answer, view: result.view } : { answer };
  } catch (error) {
    const answer = answerForError(error);
    if (answer === undefined || !isRouteError(error)) throw error;
    const { 'content-type': _bodyType, ...refusalHeaders } = answer.headers;
    return { answer, refusal: error, refusalHeaders };
  }
}

function isSafeMethod(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** The app's parsed body when it has fields, else a form or JSON body read here. */
async function bodyFieldsOf(request: RouteRequest, safe: boolean): Promise<unknown> {
  const { parsedBody } = request;
  if (isRecord(parsedBody) && Object.keys(parsedBody).length > 0) return parsedBody;
  const type = fieldBodyTypeOf(request.header('content-type'));
  if (safe || type === undefined) return {};
  let text: string | undefined;
  try {
    text = await request.readBodyText(MAX_FORM_BYTES);
  } catch (error) {
    if (isRawBodyError(error)) {
      throw routeError('invalid_request', 'The request body could not be read.', { cause: error });
    }
    throw error;
  }
  return text === undefined ? {} : parseFieldBody(type, text);
}
