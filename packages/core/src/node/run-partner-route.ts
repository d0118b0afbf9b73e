import type { IncomingMessage } from 'node:http';
import type { DcbError } from '../errors/dcb-error.js';
import type { HttpAnswer } from '../http/http-answer.js';
import type { PartnerRoutes, RouteInput } from '../routes/partner-routes.js';
import { answerForDeniedAccess, answerForError, answerForResult } from '../routes/route-answers.js';
import { isRouteError, type RouteErrorCode } from '../routes/route-error.js';
import type { RouteResult, RouteView } from '../routes/route-result.js';
import type { RequestOrigin } from '../routes/same-origin.js';
import { collectFields, type FieldSources } from './collect-fields.js';

/** One of the partner routes (checkout, return, cancel, resume), as runPartnerRoute runs it. */
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

/**
 * One partner route on a Node request, for any framework: collects the fields, runs the route
 * for the signed-in account, and turns its result or its RouteError into an answer. Any other
 * error is thrown, for the app's own error handling.
 */
export async function runPartnerRoute(
  action: PartnerAction,
  accountKey: string | undefined | Promise<string | undefined>,
  sources: FieldSources & {
    /** The app's session id (express-session's `req.sessionID`), binding form tokens to it. */
    session?: string | undefined | Promise<string | undefined>;
  },
): Promise<PartnerRouteOutcome> {
  try {
    const { req } = sources;
    const safe = req.method === 'GET' || req.method === 'HEAD';
    // Only a GET route (the return page) reads the query string; the state-changing routes
    // refuse any method but POST, and never take a field from the query: a link must not cancel.
    const fields = await collectFields(safe ? sources : { ...sources, query: undefined });
    const result = await action({
      accountKey: await accountKey,
      fields,
      method: req.method,
      session: await sources.session,
      ...(safe ? {} : { request: requestOrigin(req) }),
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

/** The access gate: undefined lets the request through; otherwise the 403 or the redirect to answer. */
export async function gateAnswer(
  routes: PartnerRoutes,
  accountKey: string | undefined | Promise<string | undefined>,
  productUid: string,
  redirectTo: string | undefined,
): Promise<HttpAnswer | undefined> {
  const { allowed } = await routes.checkAccess(await accountKey, productUid);
  return allowed ? undefined : answerForDeniedAccess({ productUid, redirectTo });
}

// The body types a page of another site can post without a CORS preflight.
const SIMPLE_BODY_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

function requestOrigin(req: IncomingMessage): RequestOrigin {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return {
    origin: req.headers.origin,
    secFetchSite: firstHeader(req.headers['sec-fetch-site']),
    simpleBody: SIMPLE_BODY_TYPES.has(type),
  };
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
