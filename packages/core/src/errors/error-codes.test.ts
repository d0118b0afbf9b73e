import { describe, expect, expectTypeOf, it } from 'vitest';
import { entitlementError } from '../access/errors.js';
import { rawBodyError } from '../http/body-error.js';
import { answerForDeniedAccess } from '../routes/route-answers.js';
import { isRouteError, type RouteErrorCode, routeError } from '../routes/route-error.js';
import { refused } from '../webhooks/webhook-answers.js';
import {
  isAuthenticationFailure,
  type WebhookVerificationCode,
} from '../webhooks/webhook-verification-error.js';
import {
  type AnsweredErrorCode,
  type CodesOf,
  codesOf,
  httpStatusOf,
  isAuthenticationFailureCode,
  isCodeOf,
} from './code-groups.js';
import { DcbError } from './dcb-error.js';
import { DCB_ERROR_CODES, type ErrorCodeGroup, type ErrorCodeRow, type KitErrorCode } from './error-codes.js';

const rows = Object.entries(DCB_ERROR_CODES as Record<KitErrorCode, ErrorCodeRow>) as [
  KitErrorCode,
  ErrorCodeRow,
][];
const codesWhere = (keep: (row: ErrorCodeRow) => boolean) =>
  rows.filter(([, row]) => keep(row)).map(([code]) => code);

describe('DCB_ERROR_CODES', () => {
  it('marks only 401 verification codes as authentication failures', () => {
    for (const [code, row] of rows) {
      if (row.authenticationFailure)
        expect({ code, ...row }).toMatchObject({ group: 'verification', httpStatus: 401 });
    }
    for (const code of codesOf('verification')) {
      if (httpStatusOf(code) === 401)
        expect(DCB_ERROR_CODES[code]).toHaveProperty('authenticationFailure', true);
    }
  });

  it('gives every code that goes on a webhook or route answer a status', () => {
    for (const group of ['verification', 'body', 'processing', 'route', 'access'] as const) {
      for (const code of codesOf(group)) expect(DCB_ERROR_CODES[code], code).toHaveProperty('httpStatus');
    }
  });

  it('groups every code once: the groups partition the table', () => {
    expectTypeOf<CodesOf<ErrorCodeGroup>>().toEqualTypeOf<KitErrorCode>();
    const groups = new Set(rows.map(([, row]) => row.group));
    const grouped = [...groups].flatMap((group) => codesOf(group));
    expect(grouped.sort()).toEqual(rows.map(([code]) => code).sort());
  });
});

describe('what is derived from the table', () => {
  it('isRouteError recognises the route group and nothing else', () => {
    for (const [code, row] of rows) {
      expect(isRouteError(new DcbError(code, 'refused')), code).toBe(row.group === 'route');
    }
    expect(isRouteError(new DcbError('CAT-102', 'not found'))).toBe(false);
    expect(isRouteError({ code: 'not_found' })).toBe(false);
    expectTypeOf<RouteErrorCode>().toEqualTypeOf<CodesOf<'route'>>();
  });

  it('isAuthenticationFailure is true for the rows marked so, and no other', () => {
    const marked = codesWhere((row) => row.authenticationFailure === true);
    expect(marked.length).toBeGreaterThan(0);
    for (const code of codesOf('verification')) {
      expect(isAuthenticationFailure(code), code).toBe(marked.includes(code));
    }
    for (const [code] of rows) expect(isAuthenticationFailureCode(code), code).toBe(marked.includes(code));
    expect(isAuthenticationFailureCode('SEC-001')).toBe(false);
  });

  it('isCodeOf is false for strings that are not kit codes', () => {
    expect(isCodeOf('route', 'toString')).toBe(false);
    expect(isCodeOf('route', 'SUB-101')).toBe(false);
  });

  it('routeError carries the status of the code’s row', () => {
    for (const code of codesOf('route')) {
      expect(routeError(code, 'refused').httpStatus, code).toBe(DCB_ERROR_CODES[code].httpStatus);
    }
  });

  it('entitlement and raw-body errors carry no status, as before the table had one', () => {
    expect(entitlementError('entitlement_not_found', 'none').httpStatus).toBeUndefined();
    expect(rawBodyError('body_too_large', 'large').httpStatus).toBeUndefined();
  });

  it('refused answers each code with its row’s status', () => {
    const answered = codesWhere((row) => row.httpStatus !== undefined) as AnsweredErrorCode[];
    for (const code of answered) {
      const answer = refused(code);
      expect(answer.status, code).toBe(DCB_ERROR_CODES[code].httpStatus);
      expect(JSON.parse(answer.body ?? '')).toEqual({ received: false, error: code });
    }
    expect(refused('in_progress', 5).headers['retry-after']).toBe('5');
  });

  it('the access gate answers access_required with its row’s status', () => {
    const answer = answerForDeniedAccess({ productUid: 'prod_1' });
    expect(answer.status).toBe(DCB_ERROR_CODES.access_required.httpStatus);
    expect(JSON.parse(answer.body ?? '')).toMatchObject({ error: { code: 'access_required' } });
  });

  it('refused takes only the table’s answered codes', () => {
    const verification = 'header_missing' as WebhookVerificationCode;
    // Compiled, never run: the compiler is the check.
    const _typeChecks = () => [
      refused(verification),
      // @ts-expect-error not a code of the table
      refused('teapot'),
      // @ts-expect-error a code the kit never answers HTTP with
      refused('invalid_option'),
    ];
    expect(typeof _typeChecks).toBe('function');
  });
});
