import type { DcbError } from '../errors/dcb-error.js';
import { optionError } from '../errors/option-error.js';
import { type OptionNames, type RenamedOption, refuseUnknownOptions } from '../errors/unknown-options.js';
import type { PartnerRoutes } from './partner-route-types.js';
import type { RouteErrorCode } from './route-error.js';
import type { RouteView } from './route-result.js';

// The options of every adapter's route maker (createExpressRoutes, createKoaRoutes,
// createFastifyRoutes, createHonoRoutes, createFetchRoutes, createNextHandlers): their shape,
// written once here so that every adapter's hover docs say the same, and their check, run once
// when the routes are made. An option the maker does not know would otherwise be ignored in
// silence, and the one it stands for found missing at the first request ("options.signedInAccount
// is not a function"), long after the app started.

/**
 * The options of an adapter's route maker, in its framework's terms. `Req` is what your functions
 * read the request from (Express's `req`, Koa's `ctx`, Hono's `c`, a fetch Request); `Rendered` is
 * what `render` and `renderError` return (nothing where they write a response, the Response where
 * they make one); `Writer` is what they get after the request to write with (Express's `[res]`,
 * Fastify's `[reply]`; none where `Req` writes too, or a Response is returned). Each adapter names
 * its own: `ExpressRoutesOptions` is `RouteHandlerOptions<Request, void | Promise<void>, [res: Response]>`.
 */
export interface RouteHandlerOptions<Req, Rendered, Writer extends unknown[] = []> {
  /** The kit's partner routes (`kit.routes`). */
  routes: PartnerRoutes;
  /** The signed-in account of a request (your session's user id), or undefined. */
  signedInAccount: (request: Req) => string | undefined | Promise<string | undefined>;
  /**
   * The id of the browser's session, when your app has one (express-session's `req.sessionID`,
   * @fastify/session's `request.session.sessionId`, or a random value you keep in the session at
   * sign-in): form tokens are then bound to the session as well as the account, so one copied from
   * another session is refused. Pass the same id to `routes.formToken(accountKey, sessionId)`.
   */
  sessionId?: (request: Req) => string | undefined | Promise<string | undefined>;
  /** Render a view yourself (an HTML page); default: the view as JSON. */
  render?: (view: RouteView, request: Req, ...writer: Writer) => Rendered;
  /**
   * Render a refusal yourself (an HTML error page): `error.code` says which, `error.httpStatus`
   * what to answer, `error.message` a sentence for the browser. Default: small JSON. The refusal's
   * Allow and Retry-After headers are set on the response before it runs, or added to the Response
   * it returns unless that has its own.
   */
  renderError?: (error: DcbError<RouteErrorCode>, request: Req, ...writer: Writer) => Rendered;
  /** Where requireAccess sends someone without access; default: answer 403. */
  offersPage?: string;
}

/** Options of earlier versions, and the option that replaced each. */
const RENAMED: Readonly<Record<string, RenamedOption>> = {
  accountKey: {
    to: 'signedInAccount',
    hint: "Pass signedInAccount: (request) => the signed-in account's id (your session's user id), or undefined.",
  },
};

const SHARED_OPTIONS = ['signedInAccount', 'sessionId', 'render', 'renderError', 'offersPage'] as const;
const FUNCTION_OPTIONS = ['sessionId', 'render', 'renderError'] as const;
const GATE_OPTIONS = ['signedInAccount', 'redirectTo'] as const;

export interface RouteHandlerOptionsCheck {
  /**
   * The option that brings the partner routes: `routes` (`routes: kit.routes`, the default), or
   * `kit` where the adapter makes the kit itself, at the first request (Next.js).
   */
  routesFrom?: 'routes' | 'kit';
}

/**
 * Refuses, with a DcbError, route maker options that would fail at the first request: an option
 * the maker does not know (`unknown_option`, naming its replacement when it was renamed:
 * `accountKey` is `signedInAccount`), a missing `routes` or `signedInAccount`, or one of the wrong
 * type (`invalid_option`). Every adapter calls it first, with its maker's name.
 *
 * @example
 * export function createMyRoutes(options: MyRoutesOptions) {
 *   checkRouteHandlerOptions('createMyRoutes', options);
 *   return partnerRouteHandlers(options.routes, options, { handle, gate });
 * }
 */
export function checkRouteHandlerOptions(
  where: string,
  options: unknown,
  { routesFrom = 'routes' }: RouteHandlerOptionsCheck = {},
): void {
  if (typeof options !== 'object' || options === null) {
    throw optionError(where, 'options', `are required: { ${routesFrom}, signedInAccount }.`);
  }
  refuseUnknown(where, options, [routesFrom, ...SHARED_OPTIONS]);
  const given = options as Readonly<Record<string, unknown>>;
  if (routesFrom === 'routes' && !isPartnerRoutes(given.routes)) {
    throw optionError(where, 'routes', "must be the kit's partner routes: routes: kit.routes.");
  }
  checkSignedInAccount(where, given.signedInAccount, true);
  for (const option of FUNCTION_OPTIONS) {
    if (given[option] !== undefined && typeof given[option] !== 'function') {
      throw optionError(where, option, 'must be a function, when given.');
    }
  }
  checkPage(where, 'offersPage', given.offersPage);
}

/** requireAccess's own options, checked when the gate is made (at mounting). */
export function checkGateOptions(where: string, options: unknown): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    throw optionError(where, 'options', 'must be { signedInAccount?, redirectTo? }, when given.');
  }
  refuseUnknown(where, options, GATE_OPTIONS);
  const given = options as Readonly<Record<string, unknown>>;
  checkSignedInAccount(where, given.signedInAccount, false);
  checkPage(where, 'redirectTo', given.redirectTo);
}

/** The maker's option names, in the order its message lists them. */
function refuseUnknown(where: string, options: object, known: readonly string[]): void {
  const names: OptionNames<Record<string, unknown>> = Object.fromEntries(
    known.map((name) => [name, true] as const),
  );
  refuseUnknownOptions(where, options, names, RENAMED);
}

function checkSignedInAccount(where: string, value: unknown, required: boolean): void {
  if (value === undefined && !required) return;
  if (typeof value !== 'function') {
    throw optionError(
      where,
      'signedInAccount',
      "must be a function of the request that gives the signed-in account's id (your session's user id), or undefined when no one is signed in.",
    );
  }
}

function checkPage(where: string, option: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'string' || value === '')) {
    throw optionError(where, option, 'must be the path or URL of a page, when given.');
  }
}

function isPartnerRoutes(value: unknown): boolean {
  return typeof (value as { checkout?: unknown } | undefined)?.checkout === 'function';
}
