import { SERVICE_ERROR_CODES } from '../schemas/api-error-codes.js';
import {
  DCB_ERROR_CODES,
  type ErrorCodeGroup,
  type ErrorCodeRow,
  isKitErrorCode,
  type KitErrorCode,
} from './error-codes.js';

// Everything here reads DCB_ERROR_CODES: a code changes group, status or authentication meaning
// in its row, and the unions, the checks and the answers follow.

type Table = typeof DCB_ERROR_CODES;

/** The codes of one group (or several): `CodesOf<'route'>` is RouteErrorCode. */
export type CodesOf<G extends ErrorCodeGroup> = {
  [C in KitErrorCode]: Table[C]['group'] extends G ? C : never;
}[KitErrorCode];

/** The verification codes that mean the webhook did not prove it came from the service. */
export type AuthenticationFailureCode = {
  [C in KitErrorCode]: Table[C] extends { readonly authenticationFailure: true } ? C : never;
}[KitErrorCode];

/** The codes the kit answers HTTP with: only these may go on the wire. */
export type AnsweredErrorCode = {
  [C in KitErrorCode]: Table[C] extends { readonly httpStatus: number } ? C : never;
}[KitErrorCode];

/** The status the table gives a code (a union of them for a union of codes). */
export type HttpStatusOf<C extends AnsweredErrorCode> = C extends unknown
  ? Table[C] extends { readonly httpStatus: infer Status extends number }
    ? Status
    : never
  : never;

// Widened once so the checks below read optional properties without narrowing every row.
const ROWS: Readonly<Record<KitErrorCode, ErrorCodeRow>> = DCB_ERROR_CODES;

/** True for a code of dcbkit in `group`; false for any other string, a service code included. */
export function isCodeOf<G extends ErrorCodeGroup>(group: G, code: string): code is CodesOf<G> {
  return isKitErrorCode(code) && ROWS[code].group === group;
}

/** True for a code whose row says the webhook did not prove it came from the service. */
export function isAuthenticationFailureCode(code: string): code is AuthenticationFailureCode {
  return isKitErrorCode(code) && ROWS[code].authenticationFailure === true;
}

/** The status the kit answers with `code`. */
export function httpStatusOf<C extends AnsweredErrorCode>(code: C): HttpStatusOf<C> {
  return ROWS[code].httpStatus as HttpStatusOf<C>;
}

/** Every code of `group`, in the table's order. */
export function codesOf<G extends ErrorCodeGroup>(group: G): readonly CodesOf<G>[] {
  return (Object.keys(ROWS) as KitErrorCode[]).filter((code): code is CodesOf<G> => isCodeOf(group, code));
}

/**
 * The group of a code of dcbkit's (`'route'`, `'verification'`…: its row's `group`), `'service'`
 * for a code of the spec's error table, undefined for any other string (a code the service added
 * after this version). Branch on the group where the code itself is too fine: every `'client'`
 * code is a failure to talk to the service, every `'configuration'` one a fix to the setup.
 */
export function errorGroupOf(code: string): ErrorCodeGroup | 'service' | undefined {
  if (isKitErrorCode(code)) return ROWS[code].group;
  return Object.hasOwn(SERVICE_ERROR_CODES, code) ? 'service' : undefined;
}
