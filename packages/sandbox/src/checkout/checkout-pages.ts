import type { ConsentMethod } from '@dcbkit/core';
import type { OperatorConfig, SandboxOffer } from '../config/config-schema.js';
import type { Network } from '../operator/consent-methods.js';
import type { PaymentRecord } from '../payments/payment-record.js';
import type { ConsentSession } from './checkout-sessions.js';
import { html, type SafeHtml } from './html.js';
import type { PageOptions } from './layout.js';
import { FORMAT_LOCALE, type Locale } from './locale.js';
import { type Messages, messagesFor } from './messages.js';

/** How long the processing page waits before it looks again. */
export const PROCESSING_REFRESH_SECONDS = 2;
/** How long a failure stays on screen before the browser returns to the merchant. */
export const RESULT_REDIRECT_SECONDS = 5;

export function formatPrice(offer: SandboxOffer, locale: Locale): string {
  return new Intl.NumberFormat(FORMAT_LOCALE[locale], {
    style: 'currency',
    currency: offer.price.currency,
  }).format(offer.price.amount / 10 ** minorDigits(offer.price.currency));
}

function minorDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/** The offer's price line: once, per period, or free trial then per period. */
export function priceLine(offer: SandboxOffer, locale: Locale): string {
  const t = messagesFor(locale);
  const price = formatPrice(offer, locale);
  if (offer.type !== 'SUBSCRIPTION' || !offer.billingPeriod) return t.priceOnce(price);
  const recurring = t.pricePerPeriod(price, offer.billingPeriod);
  return offer.trialDays > 0 ? t.trialThen(offer.trialDays, recurring) : recurring;
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

function offerSummary(payment: PaymentRecord, t: Messages, locale: Locale): SafeHtml {
  return html`<section class="offer"><strong>${payment.offer.name}</strong><span>${priceLine(payment.offer, locale)}</span>
<p class="muted">${t.chargedTo}</p></section>`;
}

function frame(
  payment: PaymentRecord,
  locale: Locale,
  title: string,
  content: SafeHtml,
  operator?: OperatorConfig,
): SafeHtml {
  const t = messagesFor(locale);
  const operatorBanner = operator?.operatorConsentPage
    ? html`<p class="operator">${t.operatorPage(operator.name)}</p>`
    : '';
  return html`<div class="card"><span class="badge">${t.sandboxBadge}</span>${operatorBanner}
<h1>${title}</h1>${offerSummary(payment, t, locale)}${content}</div>`;
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
  return { locale, title: t.pageTitle, body: frame(payment, locale, t.pageTitle, content) };
}

export interface ConsentStepView {
  payment: PaymentRecord;
  session: ConsentSession;
  locale: Locale;
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
  let title: string;
  let form: SafeHtml;
  switch (session.method) {
    case 'PIN':
      title = t.pinTitle;
      form = html`<p>${t.pinSentTo(view.pinLength, number)}</p>
<form method="post" action="${base}/consent/pin">
<label for="pin">${t.pinLabel}</label>
<input id="pin" name="pin" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="${view.pinLength}" dir="ltr" required class="code">
<button type="submit">${t.confirmAndPay}</button>
</form>
<p class="muted"><a href="/sandbox/inbox?msisdn=${encodeURIComponent(session.line.msisdn)}" target="_blank" rel="noopener">${t.pinInboxLink}</a></p>
${postButton(`${base}/consent/pin/resend`, t.pinResend, 'link')}`;
      break;
    case 'HEADER_ENRICHMENT':
      title = t.heTitle;
      form = html`<p>${t.heBody(operator.name, number)}</p>
${postButton(`${base}/consent/header-enrichment`, t.confirmAndPay, '')}`;
      break;
    case 'MO_SMS': {
      const keyword = session.keyword ?? '';
      title = t.moTitle;
      form = html`<p>${t.moBody(html`<span class="code">${keyword}</span>`, phone(view.shortCode))}</p>
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
  return { locale, title, body: frame(payment, locale, title, content, operator) };
}

/** Consent given, the operator is charging: the page looks again by itself. */
export function processingPage(payment: PaymentRecord, locale: Locale): PageOptions {
  const t = messagesFor(locale);
  const self = `/c/${encodeURIComponent(payment.paymentUid)}`;
  const content = html`<p>${t.processingBody}</p><a class="button secondary" href="${self}">${t.refresh}</a>`;
  return {
    locale,
    title: t.processingTitle,
    body: frame(payment, locale, t.processingTitle, content),
    refresh: { seconds: PROCESSING_REFRESH_SECONDS },
  };
}

/**
 * A final state. The way back to the merchant is a link; a redirect checkout also moves on by itself,
 * an embedded one tells the parent page (postMessage to the return URL's origin) and links with
 * target=_top, since a page inside an iframe cannot send the whole window elsewhere on its own.
 */
export function resultPage(payment: PaymentRecord, locale: Locale): PageOptions {
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
    ? html`<p class="error" role="alert">${t.failure[payment.failure.reason]}${payment.failure.code ? ` (${payment.failure.code})` : ''}</p>`
    : '';
  const link = html`<a class="button" id="return" href="${returnUrl}"${embedded ? html` target="_top"` : ''}>${t.returnToMerchant}</a>`;
  const page: PageOptions = { locale, title, body: frame(payment, locale, title, html`${reason}${link}`) };
  if (embedded) {
    const message = { type: 'dcb.checkout.result', paymentUid: payment.paymentUid, status: payment.status };
    page.script = `window.parent.postMessage(${safeJson(message)}, ${safeJson(new URL(returnUrl).origin)});`;
  } else {
    page.refresh = { seconds: RESULT_REDIRECT_SECONDS, url: returnUrl };
  }
  return page;
}

export function notFoundPage(locale: Locale): PageOptions {
  const t = messagesFor(locale);
  return {
    locale,
    title: t.notFoundTitle,
    body: html`<div class="card"><span class="badge">${t.sandboxBadge}</span><h1>${t.notFoundTitle}</h1></div>`,
  };
}

/** JSON that cannot close the script element it sits in. */
function safeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
