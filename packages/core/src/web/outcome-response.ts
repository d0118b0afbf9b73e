import type { RouteHandlerOptions } from '../routes/route-handler-options.js';
import type { PartnerRouteOutcome } from '../routes/run-route-request.js';
import { writeRouteOutcome } from '../routes/write-route-outcome.js';
import { responseOf, withHeaders } from './response-of.js';

/**
 * A partner route's outcome as a fetch Response, for a maker whose `render` and `renderError` make
 * one from `request` (what the app reads the request from: a Request, Hono's `c`): the app's page
 * for a view or a refusal it renders, the refusal's Allow and Retry-After added where its Response
 * lacks them; otherwise core's answer.
 *
 * @example
 * return outcomeResponse(await runFetchRoute(action, c.req.raw, caller), options, c);
 */
export async function outcomeResponse<Req>(
  outcome: PartnerRouteOutcome,
  options: Pick<RouteHandlerOptions<Req, Response | Promise<Response>>, 'render' | 'renderError'>,
  request: Req,
): Promise<Response> {
  const { render, renderError } = options;
  return writeRouteOutcome<Response | Promise<Response>>(outcome, {
    render: render && ((view) => render(view, request)),
    renderError:
      renderError && (async (refusal, headers) => withHeaders(await renderError(refusal, request), headers)),
    answer: responseOf,
  });
}
