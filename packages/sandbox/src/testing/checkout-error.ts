import type { BrowserPage } from './checkout-browser.js';

/**
 * The test helper could not do what it was asked: the checkout refused the number (with the
 * spec's `code`, e.g. SBR-102 or SUB-108), the wanted consent method is not offered, or the
 * payment ended other than asked. `page` is where the checkout stood.
 */
export class SandboxCheckoutError extends Error {
  override readonly name = 'SandboxCheckoutError';

  constructor(
    message: string,
    readonly code: string | undefined = undefined,
    readonly page: BrowserPage | undefined = undefined,
  ) {
    super(message);
  }
}
