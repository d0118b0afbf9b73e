import type { PaymentStatus } from '@dcbkit/core';
import { type OptionNames, refuseUnknownOptions } from '@dcbkit/core/web';
import type { BrowserPage } from './checkout-browser.js';
import { SandboxCheckoutError } from './checkout-error.js';
import {
  browserFor,
  type CheckoutOutcome,
  type CheckoutWalk,
  enterWrongPins,
  giveConsent,
  outcomeOf,
  type PayOptions,
  paymentUidOf,
  reachConsent,
} from './checkout-walk.js';
import type { LineOutcome } from './choose-number.js';
import { sandboxControlClient } from './sandbox-control-client.js';

/** Where the sandbox is: a running `Sandbox` or one of its environments, or an API base URL. */
export type SandboxTarget = string | { apiBaseUrl: string };

/** The checkout's languages. */
export type CheckoutLocale = 'en' | 'fr' | 'ar';

export interface CheckoutDriverOptions {
  /** Sent as Accept-Language. Default 'en'. */
  locale?: CheckoutLocale;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

/** How a payment should fail: the operator refuses the charge, or the subscriber types wrong PINs. */
export type FailureCause = 'INSUFFICIENT_BALANCE' | 'DECLINED' | 'WRONG_PIN';

export interface FailOptions extends PayOptions {
  because: FailureCause;
}

/** Every option createCheckoutDriver takes: the compiler holds this list to CheckoutDriverOptions; another is refused (unknown_option). */
const CHECKOUT_DRIVER_OPTIONS: OptionNames<CheckoutDriverOptions> = {
  locale: true,
  fetch: true,
};

/**
 * Pays, fails or abandons payments on the sandbox's checkout pages over HTTP, as a subscriber
 * without JavaScript would: number, consent by PIN (read from the sandbox's SMS inbox), network
 * recognition or keyword SMS, and the result. Works against an in-process sandbox or one started
 * with the CLI, in either environment.
 *
 * @example
 * const checkout = createCheckoutDriver(sandbox);
 * const payment = await client.payments.create({ mode: 'HOSTED', offerUid, returnUrl });
 * const outcome = await checkout.pay(payment.checkoutUrl, { method: 'PIN' });
 * expect(outcome.status).toBe('SUCCEEDED');
 */
export function createCheckoutDriver(target: SandboxTarget, options: CheckoutDriverOptions = {}) {
  if (typeof options === 'object' && options !== null)
    refuseUnknownOptions('createCheckoutDriver', options, CHECKOUT_DRIVER_OPTIONS);
  const base = (typeof target === 'string' ? target : target.apiBaseUrl).replace(/\/+$/, '');
  const control = sandboxControlClient(base, options.fetch ?? globalThis.fetch);
  const walk: CheckoutWalk = { control, locale: options.locale ?? 'en' };
  return {
    /**
     * Pays: number, consent, result. Resolves with status SUCCEEDED (PROCESSING for a slow line).
     * Throws SandboxCheckoutError when the checkout refuses the number (`code` SBR-102, SUB-108...)
     * or the payment does not succeed.
     */
    async pay(checkoutUrl: string, payOptions: PayOptions = {}): Promise<CheckoutOutcome> {
      const step = await reachConsent(walk, checkoutUrl, 'SUCCESS', payOptions);
      const page = await giveConsent(walk, step);
      const outcome = await outcomeOf(walk, step.paymentUid, page, step.method, step.msisdn);
      if (outcome.status !== 'SUCCEEDED' && outcome.status !== 'PROCESSING') {
        throw new SandboxCheckoutError(
          `Payment ${step.paymentUid} ended ${outcome.status}.`,
          undefined,
          outcome.page,
        );
      }
      return outcome;
    },

    /**
     * Makes the payment fail: a test number whose charge is refused (PAY-101, PAY-103), or wrong
     * PINs until the checkout gives up. Resolves with status FAILED; throws SandboxCheckoutError
     * when it cannot fail that way (a free trial charges nothing, so only WRONG_PIN fails it).
     */
    async fail(checkoutUrl: string, failOptions: FailOptions): Promise<CheckoutOutcome> {
      return failCheckout(walk, checkoutUrl, failOptions);
    },

    /**
     * The subscriber cancels on the checkout's first page: FAILED, with payment.failed. Throws
     * SandboxCheckoutError when the payment is no longer open there (it ended: nothing to cancel).
     */
    async abandon(checkoutUrl: string): Promise<CheckoutOutcome> {
      const paymentUid = paymentUidOf(checkoutUrl);
      const browser = browserFor(walk, checkoutUrl);
      const first = await browser.open(checkoutUrl);
      if (!first.forms.some((form) => form.action.endsWith('/abandon'))) {
        throw new SandboxCheckoutError(
          `Payment ${paymentUid} is not open on its checkout: nothing to abandon.`,
          undefined,
          first,
        );
      }
      return outcomeOf(walk, paymentUid, await browser.submit(first, '/abandon'), null, null);
    },

    readPin: control.readPin,

    /** The payment's status as the sandbox holds it (no token needed). */
    async status(paymentUid: string): Promise<PaymentStatus> {
      return (await control.payment(paymentUid)).status as PaymentStatus;
    },

    /** Moves sandbox time forward (both environments share one clock); resolves once due tasks ran. */
    async advanceClock(seconds: number): Promise<void> {
      await control.request('/sandbox/clock/advance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds }),
      });
    },
  };
}

export type CheckoutDriver = ReturnType<typeof createCheckoutDriver>;

async function failCheckout(
  walk: CheckoutWalk,
  checkoutUrl: string,
  failOptions: FailOptions,
): Promise<CheckoutOutcome> {
  const wrongPin = failOptions.because === 'WRONG_PIN';
  if (wrongPin && failOptions.method !== undefined && failOptions.method !== 'PIN') {
    throw new SandboxCheckoutError('WRONG_PIN fails a payment by PIN only.');
  }
  const method = wrongPin ? 'PIN' : failOptions.method;
  const line: LineOutcome = wrongPin ? 'SUCCESS' : (failOptions.because as LineOutcome);
  const step = await reachConsent(walk, checkoutUrl, line, {
    ...(method !== undefined ? { method } : {}),
    ...(failOptions.msisdn !== undefined ? { msisdn: failOptions.msisdn } : {}),
  });
  const page: BrowserPage = wrongPin ? await enterWrongPins(walk, step) : await giveConsent(walk, step);
  const outcome = await outcomeOf(walk, step.paymentUid, page, step.method, step.msisdn);
  if (outcome.status !== 'FAILED') {
    throw new SandboxCheckoutError(
      `Payment ${step.paymentUid} ended ${outcome.status}, not FAILED${wrongPin ? '' : ' (a free trial charges nothing, so its balance cannot refuse it: use because: "WRONG_PIN")'}.`,
      undefined,
      outcome.page,
    );
  }
  return outcome;
}
