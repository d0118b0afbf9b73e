import {
  answerForDeniedAccess,
  answerForError,
  answerForResult,
  type HttpAnswer,
} from '../routes/http-answer.js';
import type { PartnerRoutes, RouteInput } from '../routes/partner-routes.js';
import type { RouteResult, RouteView } from '../routes/route-result.js';
import { collectFields, type FieldSources } from './collect-fields.js';

/** One of the partner routes (checkout, return, cancel, resume), as runPartnerRoute runs it. */
export type PartnerAction = (input: RouteInput) => Promise<RouteResult>;

/** What an adapter writes back: always an answer; for a view, also the view, for an app that renders it itself. */
export type PartnerRouteOutcome = { answer: HttpAnswer; view?: RouteView };

/**
 * One partner route on a Node request, for any framework: collects the fields, runs the route
 * for the signed-in account, and turns its result or its RouteError into an answer. Any other
 * error is thrown, for the app's own error handling.
 */
export async function runPartnerRoute(
  action: PartnerAction,
  accountKey: string | undefined | Promise<string | undefined>,
  sources: FieldSources,
): Promise<PartnerRouteOutcome> {
  try {
    const fields = await collectFields(sources);
    const result = await action({ accountKey: await accountKey, fields });
    const answer = answerForResult(result);
    return result.type === 'view' ? { answer, view: result.view } : { answer };
  } catch (error) {
    const answer = answerForError(error);
    if (answer === undefined) throw error;
    return { answer };
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
