import { formatOfferPrice, formatPrice } from '@dcbkit/core';
import { webOriginOf } from '@dcbkit/core/schemas';
import type { OperatorConfig, SandboxOffer } from '../config/config-schema.js';
import type { EnvironmentName } from '../config/environment-config.js';
import type { ConsentSession } from '../consent/consent-session.js';
import type { Network } from '../operator/consent-methods.js';
import type { PaymentFailure, PaymentRecord } from '../records/payment-record.js';
import type { ConsentMethod } from '../shared/service-types.js';
import { html, type SafeHtml } from './html.js';
import type { PageOptions } from './layout.js';
import { FORMAT_LOCALE, type Locale } from './locale.js';
import { type Messages, messagesFor } from './messages.js';

/** How long the processing page waits before it looks again (the operator answers within seconds). */
export const PROCESSING_REFRESH_SECONDS = 2;

/** The offer's price in the page's language, with core's formatting (the currency's minor unit). */
export function offerPrice(offer: SandboxOffer, locale: Locale): string {
  return formatPrice(offer.price, FORMAT_LOCALE[locale]);
}

/** The offer's name in the page's language, else its default name. */
export function offerName(offer: SandboxOffer, locale: Locale): string {
  return (locale === 'en' ? undefined : offer.names?.[locale]) ?? offer.name;
}

/** True when consent starts a free trial: nothing is charged now. */
export function startsFreeTrial(offer: SandboxOffer): boolean {
  return offer.type === 'SUBSCRIPTION' && offer.trialDays > 0;
}

/** The offer's price line: once, per period, or free trial then per period. */
export function priceLine(offer: SandboxOffer, locale: Locale): string {
  const t = messagesFor(locale);
  if (offer.type !== 'SUBSCRIPTION' || !offer.billingPeriod) return t.priceOnce(offerPrice(offer, locale));
  const recurring = formatOfferPrice(offer, FORMAT_LOCALE[locale]);
  return startsFreeTrial(offer) ? t.trialThen(offer.trialDays, recurring) : recurring;
}

/** The return URL with the spec's two hints added: paymentUid and status. */
export function returnUrlFor(payment: PaymentRecord): string {
  const url = new URL(payment.request.returnUrl);
  url.searchParams.set('paymentUid', payment.paymentUid);
  url.searchParams.set('status', payment.status);
  return url.toString();
}

function phone(number: string): SafeHtml {
  return html`<bdi dir="ltr">${number}</bdi>`;
}

/** What the line under the offer says about money, for where the payment stands. */
function billingNote(payment: PaymentRecord, t: Messages): string {
  const trial = startsFreeTrial(payment.offer);
  switch (payment.status) {
    case 'FAILED':
    case 'EXPIRED':
    case 'CANCELED':
      return t.nothingCharged;
    case 'SUCCEEDED':
      return payment.orderId === undefined ? t.trialStarted : t.chargedTo;
    default:
      return trial ? t.trialChargedLater : t.chargedTo;
  }
}

function offerSummary(payment: PaymentRecord, t: Messages, locale: Locale): SafeHtml {
  return html`<section class="offer"><strong>${offerName(payment.offer, locale)}</strong><span>${priceLine(payment.offer, locale)}</span>
<p class="muted">${billingNote(payment, t)}</p></section>`;
}

/** The badge every page carries: which environment, and that no money moves. */
export function environmentBadge(environment: EnvironmentName, locale: Locale): SafeHtml {
  return html`<span class="badge">${messagesFor(locale).environmentBadge[environment]}</span>`;
}

function frame(
  payment: PaymentRecord,
  view: { locale: Locale; environment: EnvironmentName },
  title: string,
  content: SafeHtml,
  operator?: OperatorConfig,
): SafeHtml {
  const t = messagesFor(view.locale);
  const operatorBanner = operator?.operatorConsentPage
    ? html`<p class="operator">${t.operatorPage(operator.name)}</p>`
    : '';
  return html`<div class="card">${environmentBadge(view.environment, view.locale)}${operatorBanner}
<h1>${title}</h1>${offerSummary(payment, t, view.locale)}${content}</div>`;
}

function errorBox(message: string | undefined): SafeHtml | '' {
  return message ? html`<p class="error" role="alert">${message}</p>` : '';
}

function postButton(
  action: string,
  label: string,
  className = 'secondary',
  fields: Record<string, string> = {},
): SafeHtml {
  const hidden = Object.entries(fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return html`<form method="post" action="${action}">${hidden}<button type="submit" class="${className}">${label}</button></form>`;
}

export interface NumberStepView {
  payment: PaymentRecord;
  locale: Locale;
  environment: EnvironmentName;
  msisdn: string;
  locked: boolean;
  network: Network;
  error?: string;
}

/** Step 1: the number, prefilled (and locked when the partner asked), and the simulated connection. */
export function numberStepPage(view: NumberStepView): PageOptions {
  const { payment, locale } = view;
  const t = messagesFor(locale);
  const base = `/c/${encodeURIComponent(payment.paymentUid)}`;
  const networkOption = (network: Network) =>
    html`<label><input type="radio" name="network" value="${network}"${view.network === network ? html` checked` : ''}> ${t.network[network]}</label>`;
  const content = html`${errorBox(view.error)}
<form method="post" action="${base}/number">
<label for="msisdn">${t.numberLabel}</label>
<input id="msisdn" name="msisdn" type="tel" inputmode="tel" autocomplete="tel" dir="ltr" value="${view.msisdn}"${view.locked ? html` readonly` : html` required`}>
<p class="muted">${view.locked ? t.numberLocked : t.numberHint}</p>
<fieldset><legend class="muted">${t.networkLegend}</legend>${networkOption('MOBILE_DATA')}${networkOption('WIFI')}</fieldset>
<button type="submit">${t.continue}</button>
</form>
${postButton(`${base}/abandon`, t.cancelPayment, 'link')}`;
  return { locale, title: t.pageTitle, body: frame(payment, view, t.pageTitle, content) };
}

export interface ConsentStepView {
  payment: PaymentRecord;
  session: ConsentSession;
  locale: Locale;
  environment: EnvironmentName;
  shortCode: string;
  pinLength: number;
  /** Whether the number could be changed (not locked by the partner). */
  canChangeNumber: boolean;
  error?: string;
}

/** Step 2: consent by the method operator, offer and policy chose, with the other open methods. */
export function consentStepPage(view: ConsentStepView): PageOptions {
  const { payment, session, locale } = view;
  const t = messagesFor(locale);
  const base = `/c/${encodeURIComponent(payment.paymentUid)}`;
  const operator = session.line.operator;
  const number = phone(session.line.msisdn);
  const confirm = startsFreeTrial(payment.offer) ? t.confirmTrial : t.confirmAndPay;
  let title: string;
  let form: SafeHtml;
  switch (session.method) {
    case 'PIN':
      title = t.pinTitle;
      form = html`<p>${t.pinSentTo(view.pinLength, number)}</p>
<form method="post" action="${base}/consent/pin">
<label for="pin">${t.pinLabel}</label>
<input id="pin" name="pin" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="${view.pinLength}" dir="ltr" required class="code">
<button type="submit">${confirm}</button>
</form>
<p class="muted"><a href="/sandbox/inbox?msisdn=${encodeURIComponent(session.line.msisdn)}" target="_blank" rel="noopener">${t.pinInboxLink}</a></p>
${postButton(`${base}/consent/pin/resend`, t.pinResend, 'link')}`;
      break;
    case 'HEADER_ENRICHMENT':
      title = t.heTitle;
      form = html`<p>${t.heBody(operator.name, number)}</p>
${postButton(`${base}/consent/header-enrichment`, confirm, '')}`;
      break;
    case 'MO_SMS': {
      const keyword = session.keyword ?? '';
      title = t.moTitle;
      // RFC 5724: sms:<number>?body=<text> opens the messages app ready to send.
      const smsLink = `sms:${view.shortCode}?body=${encodeURIComponent(keyword)}`;
      form = html`<p>${t.moBody(html`<span class="code">${keyword}</span>`, phone(view.shortCode))}</p>
<a class="button secondary" id="sms-link" href="${smsLink}">${t.moOpenApp}</a>
${postButton(`${base}/consent/mo-sms`, t.moSimulate, '', { keyword })}`;
      break;
    }
  }
  const others = session.methods.filter((method) => method !== session.method);
  const alternatives =
    others.length > 0
      ? html`<p class="muted">${t.otherMethods}</p>${others.map((method: ConsentMethod) =>
          postButton(`${base}/method`, t.methodName[method], 'secondary', { method }),
        )}`
      : '';
  const content = html`${errorBox(view.error)}${form}${alternatives}
${view.canChangeNumber ? postButton(`${base}/change-number`, t.changeNumber, 'link') : ''}
${postButton(`${base}/abandon`, t.cancelPayment, 'link')}`;
  return { locale, title, body: frame(payment, view, title, content, operator) };
}

/** Consent given, the operator is charging: the page looks again by itself. */
export function processingPage(payment: PaymentRecord, view: PageContext): PageOptions {
  const { locale } = view;
  const t = messagesFor(locale);
  const self = `/c/${encodeURIComponent(payment.paymentUid)}`;
  const content = html`<p>${t.processingBody}</p><a class="button secondary" href="${self}">${t.refresh}</a>`;
  return {
    locale,
    title: t.processingTitle,
    body: frame(payment, view, t.processingTitle, content),
    refresh: { seconds: PROCESSING_REFRESH_SECONDS },
  };
}

/** What every page needs to know besides the payment. */
export interface PageContext {
  locale: Locale;
  environment: EnvironmentName;
}

/**
 * A final state. The way back to the merchant is a link the subscriber follows when ready: the page
 * never moves on by itself (WCAG 2.2.1), so a failure can be read. An embedded checkout also tells
 * the parent page (postMessage to the return URL's origin) and links with target=_top, since a page
 * inside an iframe cannot send the whole window elsewhere on its own.
 */
export function resultPage(payment: PaymentRecord, view: PageContext): PageOptions {
  const { locale } = view;
  const t = messagesFor(locale);
  const titles: Partial<Record<PaymentRecord['status'], string>> = {
    SUCCEEDED: t.succeededTitle,
    FAILED: t.failedTitle,
    EXPIRED: t.expiredTitle,
    CANCELED: t.canceledTitle,
  };
  const title = titles[payment.status] ?? t.pageTitle;
  const returnUrl = returnUrlFor(payment);
  const embedded = payment.request.presentation === 'embedded';
  const reason = payment.failure
    ? html`<p class="error" role="alert">${failureText(payment.failure, t)}${payment.failure.code ? ` (${payment.failure.code})` : ''}</p>`
    : '';
  const link = html`<a class="button" id="return" href="${returnUrl}"${embedded ? html` target="_top"` : ''}>${t.returnToMerchant}</a>`;
  const page: PageOptions = { locale, title, body: frame(payment, view, title, html`${reason}${link}`) };
  // A deep link has no web origin to address the message to: the link alone brings the app back.
  const parentOrigin = webOriginOf(returnUrl);
  if (embedded && parentOrigin !== null) {
    const message = { type: 'dcb.checkout.result', paymentUid: payment.paymentUid, status: payment.status };
    page.script = `window.parent.postMessage(${safeJson(message)}, ${safeJson(parentOrigin)});`;
  }
  return page;
}

export function notFoundPage(view: PageContext): PageOptions {
  const t = messagesFor(view.locale);
  return {
    locale: view.locale,
    title: t.notFoundTitle,
    body: html`<div class="card">${environmentBadge(view.environment, view.locale)}<h1>${t.notFoundTitle}</h1></div>`,
  };
}

/** JSON that cannot close the script element it sits in. */
function safeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Why a payment failed, in words. A subscriber who gave up after the checkout refused their line
 * (a trial already used: SUB-108; an item already owned: CAT-109…) did not simply cancel: the
 * page says the refusal, which is why they gave up, rather than "You cancelled the payment".
 */
function failureText(failure: PaymentFailure, t: Messages): string {
  const { reason, code } = failure;
  if (reason === 'ABANDONED' && code !== undefined && Object.hasOwn(t.refusal, code)) {
    return t.refusal[code as keyof Messages['refusal']];
  }
  return t.failure[reason];
}
