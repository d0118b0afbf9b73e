import type { PaymentStatus } from '@dcbkit/core';
import type { ConsentMethod } from '../shared/service-types.js';
import { type BrowserPage, CheckoutBrowser, type PageForm } from './checkout-browser.js';
import { SandboxCheckoutError } from './checkout-error.js';
import { chooseNumber, type LineOutcome } from './choose-number.js';
import type { SandboxControlClient } from './sandbox-control-client.js';

export interface PayOptions {
  /** How the subscriber confirms. Default: whatever the checkout offers first. */
  method?: ConsentMethod;
  /**
   * The subscriber's number. Default: a fresh number of an operator that sells the offer with that
   * method, never a test number, so an earlier trial or unlock of the same line never refuses it.
   */
  msisdn?: string;
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

/** What walking the checkout pages works with: the control endpoints and the browser's language. */
export interface CheckoutWalk {
  control: SandboxControlClient;
  locale: string;
}

/** The consent step reached: the page on screen and how it got there. */
export interface ConsentStep {
  browser: CheckoutBrowser;
  page: BrowserPage;
  method: ConsentMethod;
  msisdn: string;
  paymentUid: string;
  maxPinAttempts: number;
}

const CONSENT_ACTIONS: ReadonlyArray<[ConsentMethod, string]> = [
  ['PIN', '/consent/pin'],
  ['HEADER_ENRICHMENT', '/consent/header-enrichment'],
  ['MO_SMS', '/consent/mo-sms'],
];

export function browserFor(walk: CheckoutWalk, checkoutUrl: string): CheckoutBrowser {
  return new CheckoutBrowser(new URL(checkoutUrl).origin, walk.locale);
}

/** Opens the checkout and gets through the number step to the consent step of `wanted.method`. */
export async function reachConsent(
  walk: CheckoutWalk,
  checkoutUrl: string,
  outcome: LineOutcome,
  wanted: PayOptions,
): Promise<ConsentStep> {
  const paymentUid = paymentUidOf(checkoutUrl);
  const [view, cfg] = await Promise.all([walk.control.payment(paymentUid), walk.control.config()]);
  if (view.status !== 'REQUIRES_ACTION') {
    throw new SandboxCheckoutError(
      `Payment ${paymentUid} is ${view.status}; only REQUIRES_ACTION can be paid.`,
    );
  }
  const locked = view.request.prefill?.msisdnEditable === false ? view.request.prefill.msisdn : undefined;
  const msisdn = locked ?? wanted.msisdn ?? chooseNumber(cfg, view, outcome, wanted.method);
  const browser = browserFor(walk, checkoutUrl);
  // Network recognition needs mobile data; other methods are reached on Wi-Fi, where it is never offered.
  const network =
    wanted.method === undefined || wanted.method === 'HEADER_ENRICHMENT' ? 'MOBILE_DATA' : 'WIFI';
  const numbered = await browser.submit(await browser.open(checkoutUrl), '/number', { msisdn, network });
  if (numbered.status >= 400) throw numberRefused(numbered, msisdn);
  const page = await switchMethod(browser, numbered, wanted.method, `${paymentUid} on ${msisdn}`);
  const method = shownMethod(page);
  if (method === null) throw new SandboxCheckoutError(`No consent step for ${paymentUid}.`, undefined, page);
  return { browser, page, method, msisdn, paymentUid, maxPinAttempts: cfg.consentPolicy.pin.maxAttempts };
}

/** The checkout's refusal of the number, with its code (SBR-102, SUB-108...) when the page gives one. */
function numberRefused(page: BrowserPage, msisdn: string): SandboxCheckoutError {
  const shown = /<p class="error" role="alert">([^<]*)<\/p>/.exec(page.html)?.[1] ?? `HTTP ${page.status}`;
  const text = decodeEntities(shown);
  return new SandboxCheckoutError(
    `The checkout refused ${msisdn}: ${text}`,
    /\(([A-Z]{3}-[0-9]{3})\)$/.exec(text)?.[1],
    page,
  );
}

/** Switches the consent step to `wanted` when another is on screen. Throws when it is not offered. */
async function switchMethod(
  browser: CheckoutBrowser,
  page: BrowserPage,
  wanted: ConsentMethod | undefined,
  what: string,
): Promise<BrowserPage> {
  const shown = shownMethod(page);
  if (wanted === undefined || shown === wanted) return page;
  const switcher = page.forms.find(
    (form) => form.action.endsWith('/method') && form.fields.method === wanted,
  );
  if (!switcher) {
    throw new SandboxCheckoutError(
      `${wanted} is not offered for ${what} (the checkout shows ${shown ?? 'no consent step'}).`,
      undefined,
      page,
    );
  }
  return browser.submitForm(page, switcher);
}

/** Gives consent by the method on screen. */
export async function giveConsent(walk: CheckoutWalk, step: ConsentStep): Promise<BrowserPage> {
  const { browser, page, method } = step;
  switch (method) {
    case 'PIN':
      return browser.submit(page, '/consent/pin', { pin: await walk.control.readPin(step.paymentUid) });
    case 'HEADER_ENRICHMENT':
      return browser.submit(page, '/consent/header-enrichment');
    case 'MO_SMS':
      // The form carries the keyword the page asks for: this is the subscriber sending the SMS.
      return browser.submit(page, '/consent/mo-sms');
  }
}

/** Types a wrong PIN until the checkout stops asking (it fails the payment after the last attempt). */
export async function enterWrongPins(walk: CheckoutWalk, step: ConsentStep): Promise<BrowserPage> {
  const pin = await walk.control.readPin(step.paymentUid);
  const wrong = pin === '0'.repeat(pin.length) ? '1'.repeat(pin.length) : '0'.repeat(pin.length);
  let page = step.page;
  for (let attempt = 0; attempt < step.maxPinAttempts; attempt++) {
    if (!page.forms.some((form) => form.action.endsWith('/consent/pin'))) break;
    page = await step.browser.submit(page, '/consent/pin', { pin: wrong });
  }
  return page;
}

/** The payment's status as the sandbox holds it now, and where the checkout sends the browser. */
export async function outcomeOf(
  walk: CheckoutWalk,
  paymentUid: string,
  page: BrowserPage,
  method: ConsentMethod | null,
  msisdn: string | null,
): Promise<CheckoutOutcome> {
  const { status } = await walk.control.payment(paymentUid);
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
}

export function paymentUidOf(checkoutUrl: string): string {
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
