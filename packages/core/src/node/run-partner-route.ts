import {
  type PartnerAction,
  type PartnerRouteOutcome,
  runRouteRequest,
} from '../routes/run-route-request.js';
import { type FieldSources, nodeRouteRequest } from './node-route-request.js';

/**
 * One partner route on a Node request, for any framework: collects the fields, runs the route
 * for the signed-in account, and turns its result or its RouteError into an answer. Any other
 * error is thrown, for the app's own error handling.
 */
export function runPartnerRoute(
  action: PartnerAction,
  accountKey: string | undefined | Promise<string | undefined>,
  sources: FieldSources & {
    /** The app's session id (express-session's `req.sessionID`), binding form tokens to it. */
    session?: string | undefined | Promise<string | undefined>;
  },
): Promise<PartnerRouteOutcome> {
  return runRouteRequest(action, nodeRouteRequest(sources), { accountKey, session: sources.session });
}
