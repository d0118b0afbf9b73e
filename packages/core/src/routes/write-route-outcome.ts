import type { DcbError } from '../errors/dcb-error.js';
import type { HttpAnswer } from '../http/http-answer.js';
import type { RouteErrorCode } from './route-error.js';
import type { RouteView } from './route-result.js';
import type { PartnerRouteOutcome } from './run-route-request.js';

/**
 * How one framework writes a partner route's outcome: the app's own `render` and `renderError`,
 * bound to the framework's request and response (undefined when the app gave none), and how it
 * writes core's answer.
 */
export interface RouteOutcomeWriters<Written> {
  /** The app's render, for a view. */
  render: ((view: RouteView) => Written) | undefined;
  /** The app's renderError, for a refusal, with the refusal's headers (Allow, Retry-After) to put on its answer. */
  renderError:
    | ((refusal: DcbError<RouteErrorCode>, refusalHeaders: Record<string, string>) => Written)
    | undefined;
  /** Writes core's answer as it is: the status, the headers and the body. */
  answer: (answer: HttpAnswer) => Written;
}

/**
 * Writes a partner route's outcome the one way every adapter does: a view the app renders itself
 * goes to its `render`, a refusal to its `renderError` (with the refusal's headers), anything else
 * (and a view or refusal the app does not render) is core's answer. The adapter gives only its
 * framework's three writers.
 *
 * @example
 * const outcome = await runPartnerRoute(action, options.signedInAccount(req), sources);
 * return writeRouteOutcome(outcome, {
 *   render: render && ((view) => render(view, req, res)),
 *   renderError: renderError && ((refusal, headers) => renderError(refusal, req, res.set(headers))),
 *   answer: (answer) => writeAnswer(res, answer),
 * });
 */
export function writeRouteOutcome<Written>(
  { answer, view, refusal, refusalHeaders }: PartnerRouteOutcome,
  writers: RouteOutcomeWriters<Written>,
): Written {
  if (view && writers.render) return writers.render(view);
  if (refusal && writers.renderError) return writers.renderError(refusal, refusalHeaders ?? {});
  return writers.answer(answer);
}
