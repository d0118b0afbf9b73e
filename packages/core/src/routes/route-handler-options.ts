import { optionError } from '../errors/option-error.js';
import { type OptionNames, type RenamedOption, refuseUnknownOptions } from '../errors/unknown-options.js';

// The options of every adapter's route maker (createExpressRoutes, createKoaRoutes,
// createFastifyRoutes, createHonoRoutes, createFetchRoutes, createNextHandlers), checked once
// when the routes are made. An option the maker does not know would otherwise be ignored in
// silence, and the one it stands for found missing at the first request ("options.signedInAccount
// is not a function"), long after the app started.

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
