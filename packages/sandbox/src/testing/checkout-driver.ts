import type { PaymentStatus } from '@dcbkit/core';
import type { ConsentMethod } from '../shared/service-types.js';
import { type BrowserPage, CheckoutBrowser, type PageForm } from './checkout-browser.js';
import { SandboxCheckoutError } from './checkout-error.js';
import { chooseNumber, type LineOutcome } from './choose-number.js';
import type { ConfigView, PaymentControlView, SmsView } from './sandbox-config-view.js';

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

export interface PayOptions {
  /** How the subscriber confirms. Default: whatever the checkout offers first. */
  method?: ConsentMethod;
  /**
   * The subscriber's number. Default: a fresh number of an operator that sells the offer with that
   * method, never a test number, so an earlier trial or unlock of the same line never refuses it.
   */
  msisdn?: string;
}

/** How a payment should fail: the operator refuses the charge, or the subscriber types wrong PINs. */
export type FailureCause = 'INSUFFICIENT_BALANCE' | 'DECLINED' | 'WRONG_PIN';

export interface FailOptions extends PayOptions {
  because: FailureCause;
}

/** Where a checkout ended. */
export interface CheckoutOutcome {
  paymentUid: string;
  /** Read from the sandbox once the checkout answered: SUCCEEDED, FAILED, or PROCESSING for a slow line. */
  status: PaymentStatus;
  /** The consent method used, or null when the subscriber left before choosing one. */
  method: ConsentMethod | null;
  msisdn: string | null;
  /** Where the checkout sends the browser: its redirect, or the result page's link back to the merchant. */
  returnUrl: URL | null;
  /** The last page the checkout showed (empty when it redirected to the merchant). */
  page: BrowserPage;
}

const CONSENT_ACTIONS: ReadonlyArray<[ConsentMethod, string]> = [
  ['PIN', '/consent/pin'],
  ['HEADER_ENRICHMENT', '/consent/header-enrichment'],
  ['MO_SMS', '/consent/mo-sms'],
];

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
  const base = (typeof target === 'string' ? target : target.apiBaseUrl).replace(/\/+$/, '');
  const fetchFn = options.fetch ?? globalThis.fetch;
  const locale = options.locale ?? 'en';
  let config: Promise<ConfigView> | undefined;

  const control = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await fetchFn(`${base}${path}`, init);
    const body = (await response.json().catch(() => undefined)) as
      | { success: true; data: T }
      | { success: false; error: { code: string; message: string } }
      | undefined;
    if (!response.ok || !body?.success) {
      const error = body && !body.success ? body.error : undefined;
      throw new SandboxCheckoutError(
        `${init?.method ?? 'GET'} ${base}${path} answered ${response.status}${error ? `: ${error.message}` : ''}`,
        error?.code,
      );
    }
    return body.data;
  };
  const sandboxConfig = () => {
    config ??= control<ConfigView>('/sandbox/config');
    return config;
  };
  const payment = (paymentUid: string) =>
    control<PaymentControlView>(`/sandbox/payments/${encodeURIComponent(paymentUid)}`);

  /** The PIN texted for a payment (the newest, after a resend). Throws when none was sent. */
  const readPin = async (paymentUid: string): Promise<string> => {
    const messages = await control<SmsView[]>(`/sandbox/sms?paymentUid=${encodeURIComponent(paymentUid)}`);
    const pin = messages.find((message) => message.direction === 'MT')?.text.match(/^[0-9]+/)?.[0];
    if (pin === undefined) throw new SandboxCheckoutError(`No PIN was texted for ${paymentUid}.`);
    return pin;
  };

  const browserFor = (checkoutUrl: string) => new CheckoutBrowser(new URL(checkoutUrl).origin, locale);

  const outcomeOf = async (
    paymentUid: string,
    page: BrowserPage,
    method: ConsentMethod | null,
    msisdn: string | null,
  ): Promise<CheckoutOutcome> => {
    const { status } = await payment(paymentUid);
    const link = /<a class="button" id="return" href="([^"]+)"/.exec(page.html)?.[1];
    const back = page.leftTo ?? (link === undefined ? undefined : decodeEntities(link));
    return {
      paymentUid,
      status: status as PaymentStatus,
      method,
      msisdn,
      returnUrl: back === undefined ? null : new URL(back),
      page,
    };
  };

  /** Opens the checkout and gets through the number step to the consent step of `method`. */
  const reachConsent = async (checkoutUrl: string, outcome: LineOutcome, wanted: PayOptions) => {
    const paymentUid = paymentUidOf(checkoutUrl);
    const [view, cfg] = await Promise.all([payment(paymentUid), sandboxConfig()]);
    if (view.status !== 'REQUIRES_ACTION') {
      throw new SandboxCheckoutError(
        `Payment ${paymentUid} is ${view.status}; only REQUIRES_ACTION can be paid.`,
      );
    }
    const locked = view.request.prefill?.msisdnEditable === false ? view.request.prefill.msisdn : undefined;
    const msisdn = locked ?? wanted.msisdn ?? chooseNumber(cfg, view, outcome, wanted.method);
    const browser = browserFor(checkoutUrl);
    // Network recognition needs mobile data; other methods are reached on Wi-Fi, where it is never offered.
    const network =
      wanted.method === undefined || wanted.method === 'HEADER_ENRICHMENT' ? 'MOBILE_DATA' : 'WIFI';
    let page = await browser.submit(await browser.open(checkoutUrl), '/number', { msisdn, network });
    if (page.status >= 400) {
      const shown =
        /<p class="error" role="alert">([^<]*)<\/p>/.exec(page.html)?.[1] ?? `HTTP ${page.status}`;
      const text = decodeEntities(shown);
      throw new SandboxCheckoutError(
        `The checkout refused ${msisdn}: ${text}`,
        /\(([A-Z]{3}-[0-9]{3})\)$/.exec(text)?.[1],
        page,
      );
    }
    let shown = shownMethod(page);
    if (wanted.method !== undefined && shown !== wanted.method) {
      const switcher = page.forms.find(
        (form) => form.action.endsWith('/method') && form.fields.method === wanted.method,
      );
      if (!switcher) {
        throw new SandboxCheckoutError(
          `${wanted.method} is not offered for ${paymentUid} on ${msisdn} (the checkout shows ${shown ?? 'no consent step'}).`,
          undefined,
          page,
        );
      }
      page = await browser.submitForm(page, switcher);
      shown = shownMethod(page);
    }
    if (shown === null) throw new SandboxCheckoutError(`No consent step for ${paymentUid}.`, undefined, page);
    return {
      browser,
      page,
      method: shown,
      msisdn,
      paymentUid,
      maxPinAttempts: cfg.consentPolicy.pin.maxAttempts,
    };
  };

  /** Gives consent by the method on screen. */
  const consent = async (step: Awaited<ReturnType<typeof reachConsent>>): Promise<BrowserPage> => {
    const { browser, page, method } = step;
    switch (method) {
      case 'PIN':
        return browser.submit(page, '/consent/pin', { pin: await readPin(step.paymentUid) });
      case 'HEADER_ENRICHMENT':
        return browser.submit(page, '/consent/header-enrichment');
      case 'MO_SMS':
        // The form carries the keyword the page asks for: this is the subscriber sending the SMS.
        return browser.submit(page, '/consent/mo-sms');
    }
  };

  return {
    /**
     * Pays: number, consent, result. Resolves with status SUCCEEDED (PROCESSING for a slow line).
     * Throws SandboxCheckoutError when the checkout refuses the number (`code` SBR-102, SUB-108...)
     * or the payment does not succeed.
     */
    async pay(checkoutUrl: string, payOptions: PayOptions = {}): Promise<CheckoutOutcome> {
      const step = await reachConsent(checkoutUrl, 'SUCCESS', payOptions);
      const outcome = await outcomeOf(step.paymentUid, await consent(step), step.method, step.msisdn);
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
      const wrongPin = failOptions.because === 'WRONG_PIN';
      if (wrongPin && failOptions.method !== undefined && failOptions.method !== 'PIN') {
        throw new SandboxCheckoutError('WRONG_PIN fails a payment by PIN only.');
      }
      const method = wrongPin ? 'PIN' : failOptions.method;
      const line: LineOutcome = wrongPin ? 'SUCCESS' : (failOptions.because as LineOutcome);
      const step = await reachConsent(checkoutUrl, line, {
        ...(method !== undefined ? { method } : {}),
        ...(failOptions.msisdn !== undefined ? { msisdn: failOptions.msisdn } : {}),
      });
      let page: BrowserPage;
      if (wrongPin) {
        const pin = await readPin(step.paymentUid);
        const wrong = pin === '0'.repeat(pin.length) ? '1'.repeat(pin.length) : '0'.repeat(pin.length);
        page = step.page;
        for (let attempt = 0; attempt < step.maxPinAttempts; attempt++) {
          if (!page.forms.some((form) => form.action.endsWith('/consent/pin'))) break;
          page = await step.browser.submit(page, '/consent/pin', { pin: wrong });
        }
      } else {
        page = await consent(step);
      }
      const outcome = await outcomeOf(step.paymentUid, page, step.method, step.msisdn);
      if (outcome.status !== 'FAILED') {
        throw new SandboxCheckoutError(
          `Payment ${step.paymentUid} ended ${outcome.status}, not FAILED${failOptions.because === 'WRONG_PIN' ? '' : ' (a free trial charges nothing, so its balance cannot refuse it: use because: "WRONG_PIN")'}.`,
          undefined,
          outcome.page,
        );
      }
      return outcome;
    },

    /** The subscriber cancels on the checkout's first page: FAILED, with payment.failed. */
    async abandon(checkoutUrl: string): Promise<CheckoutOutcome> {
      const paymentUid = paymentUidOf(checkoutUrl);
      const browser = browserFor(checkoutUrl);
      const page = await browser.submit(await browser.open(checkoutUrl), '/abandon');
      return outcomeOf(paymentUid, page, null, null);
    },

    readPin,

    /** The payment's status as the sandbox holds it (no token needed). */
    async status(paymentUid: string): Promise<PaymentStatus> {
      return (await payment(paymentUid)).status as PaymentStatus;
    },

    /** Moves sandbox time forward (both environments share one clock); resolves once due tasks ran. */
    async advanceClock(seconds: number): Promise<void> {
      await control('/sandbox/clock/advance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds }),
      });
    },
  };
}

export type CheckoutDriver = ReturnType<typeof createCheckoutDriver>;

function paymentUidOf(checkoutUrl: string): string {
  const match = /\/c\/([^/?#]+)$/.exec(new URL(checkoutUrl).pathname);
  if (!match?.[1]) throw new SandboxCheckoutError(`${checkoutUrl} is no checkout URL (…/c/{paymentUid}).`);
  return decodeURIComponent(match[1]);
}

function shownMethod(page: BrowserPage): ConsentMethod | null {
  const found = CONSENT_ACTIONS.find(([, action]) =>
    page.forms.some((form: PageForm) => form.action.endsWith(action)),
  );
  return found?.[0] ?? null;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&amp;/g, '&');
}
