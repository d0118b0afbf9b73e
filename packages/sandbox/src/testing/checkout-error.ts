import { SandboxError } from '../shared/sandbox-error.js';
import type { ApiErrorCode } from '../shared/service-types.js';
import type { BrowserPage } from './checkout-browser.js';

/**
 * `checkout_failed`, or the spec's code (`SBR-102`, `SUB-108`…) when the checkout or the sandbox
 * refused with one.
 */
export type SandboxCheckoutErrorCode = 'checkout_failed' | ApiErrorCode;

/**
 * The test helper could not do what it was asked: the checkout refused the number (with the
 * spec's `code`, e.g. SBR-102 or SUB-108), the wanted consent method is not offered, or the
 * payment ended other than asked (`code` checkout_failed). `page` is where the checkout stood.
 */
export class SandboxCheckoutError extends SandboxError<SandboxCheckoutErrorCode> {
  static override readonly kind: string = 'SandboxCheckoutError';
  override readonly name: string = 'SandboxCheckoutError';

  constructor(
    message: string,
    code: SandboxCheckoutErrorCode | undefined = undefined,
    readonly page: BrowserPage | undefined = undefined,
  ) {
    super(code ?? 'checkout_failed', message);
  }
}
