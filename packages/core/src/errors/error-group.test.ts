import { describe, expect, expectTypeOf, it } from 'vitest';
import type { EntitlementErrorCode } from '../access/errors.js';
import type { OfferDefinitionErrorCode } from '../offers/define-offers.js';
import type { RouteErrorCode } from '../routes/route-error.js';
import { SERVICE_ERROR_CODES, type ServiceErrorCode } from '../schemas/api-error-codes.js';
import type { WebhookVerificationCode } from '../webhooks/webhook-verification-error.js';
import { errorGroupOf } from './code-groups.js';
import { DCB_ERROR_CODES, type DcbErrorCode, type ErrorCodeGroup, type KitErrorCode } from './error-codes.js';

describe('DcbErrorCode, the one code union', () => {
  it('is every code of the table and of the spec, and a group argument picks the group’s', () => {
    expectTypeOf<DcbErrorCode>().toEqualTypeOf<KitErrorCode | ServiceErrorCode>();
    expectTypeOf<DcbErrorCode<'route'>>().toEqualTypeOf<RouteErrorCode>();
    expectTypeOf<DcbErrorCode<'verification'>>().toEqualTypeOf<WebhookVerificationCode>();
    expectTypeOf<DcbErrorCode<'entitlement'>>().toEqualTypeOf<EntitlementErrorCode>();
    expectTypeOf<DcbErrorCode<'offer'>>().toEqualTypeOf<OfferDefinitionErrorCode>();
    expectTypeOf<DcbErrorCode<'service'>>().toEqualTypeOf<ServiceErrorCode>();
    expectTypeOf<DcbErrorCode<'body' | 'processing'>>().toEqualTypeOf<
      | 'body_too_large'
      | 'body_consumed'
      | 'body_incomplete'
      | 'body_timeout'
      | 'in_progress'
      | 'processing_failed'
      | 'processing_timeout'
      | 'ledger_contract_violated'
      | 'internal_error'
    >();
  });
});

describe('errorGroupOf', () => {
  it('gives each code of the table its row’s group', () => {
    for (const [code, row] of Object.entries(DCB_ERROR_CODES) as [
      KitErrorCode,
      { group: ErrorCodeGroup },
    ][]) {
      expect(errorGroupOf(code), code).toBe(row.group);
    }
  });

  it('calls the spec’s codes service, and knows no other string', () => {
    for (const code of Object.keys(SERVICE_ERROR_CODES)) expect(errorGroupOf(code), code).toBe('service');
    expect(errorGroupOf('PAY-999')).toBeUndefined();
    expect(errorGroupOf('toString')).toBeUndefined();
    expect(errorGroupOf('')).toBeUndefined();
  });
});
