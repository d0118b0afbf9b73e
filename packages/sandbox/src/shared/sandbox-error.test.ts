import { DcbError, isDcbError } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';
import { SANDBOX_ERROR_CODES, SandboxError, type SandboxErrorCode } from './sandbox-error.js';

describe('SandboxError', () => {
  it('is one of dcbkit’s errors, with a code from the one table', () => {
    const error = new SandboxError('unknown_subscription', 'Unknown subscription subs_x.');
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toBeInstanceOf(DcbError);
    expect(error).toBeInstanceOf(Error);
    expect(isDcbError(error, 'unknown_subscription')).toBe(true);
    expect(error.is('unknown_subscription')).toBe(true);
    expect({ name: error.name, code: error.code, message: error.message }).toEqual({
      name: 'SandboxError',
      code: 'unknown_subscription',
      message: 'Unknown subscription subs_x.',
    });
  });

  it('says what every code means', () => {
    for (const [code, meaning] of Object.entries(SANDBOX_ERROR_CODES) as Array<[SandboxErrorCode, string]>) {
      expect(meaning.length, code).toBeGreaterThan(10);
    }
  });

  it('makes its subclasses recognisable as SandboxError, and not the other way round', () => {
    class SubError extends SandboxError<'config_invalid'> {
      static override readonly kind: string = 'SubError';
    }
    const sub = new SubError('config_invalid', 'x');
    expect(sub).toBeInstanceOf(SandboxError);
    expect(new SandboxError('config_invalid', 'x')).not.toBeInstanceOf(SubError);
  });
});
