import { environmentBadge, offerPrice, priceLine, startsFreeTrial } from '../checkout/checkout-pages.js';
import { html, type SafeHtml } from '../checkout/html.js';
import type { PageOptions } from '../checkout/layout.js';
import type { Catalog } from '../config/catalog.js';
import type { TestNumberOutcome } from '../config/config-schema.js';
import type { EnvironmentApplication, EnvironmentName } from '../config/environment-config.js';
import type { GoLiveReview } from '../go-live/go-live-review.js';
import type { SmsMessage } from '../operator/sms-inbox.js';
import type { PaymentRecord } from '../records/payment-record.js';
import type { PendingSecrets } from './pending-secrets.js';

const OUTCOME_TEXT: Record<TestNumberOutcome, string> = {
  SUCCESS: 'succeeds',
  INSUFFICIENT_BALANCE: 'fails: insufficient balance (PAY-101)',
  DECLINED: 'fails: declined by the operator (PAY-103)',
  OPTED_OUT: 'refused: opted out of carrier billing (RSK-101)',
  INVALID_NUMBER: 'refused: invalid number (SBR-102)',
  UNSUPPORTED_OPERATOR: 'refused: unsupported operator (SBR-104)',
  SLOW: 'stays PROCESSING, then succeeds',
  RENEWALS_FAIL: 'pays at checkout; every later charge (trial end, renewal, grace retry) fails (PAY-101)',
  RENEWAL_RECOVERS_ON_SECOND_RETRY:
    'pays at checkout; each later charge fails, then succeeds on the second grace retry',
};

function card(title: string, content: SafeHtml): SafeHtml {
  return html`<div class="card"><h1>${title}</h1>${content}</div>`;
}

export interface DashboardView {
  catalog: Catalog;
  review: GoLiveReview;
  pendingSecrets: PendingSecrets;
  environment: EnvironmentName;
  apiBaseUrl: string;
}

/**
 * The client ID and secret as the dashboard may show them: the sandbox environment's always (from
 * the config); a production application's none before approval, its secret once after it (the
 * view that follows the dashboard's Approve), and never again.
 */
function clientCredentials(app: EnvironmentApplication, live: boolean, pending: PendingSecrets): SafeHtml {
  if (app.clientSecret !== null) {
    return html`client ID <code>${app.clientId}</code><br>client secret <code>${app.clientSecret}</code>`;
  }
  if (!live) {
    return html`client ID and secret: none yet; approving issues them, and shows the secret once`;
  }
  const issued = pending.take(app.clientId);
  return issued === undefined
    ? html`client ID <code>${app.clientId}</code><br>client secret: shown once, when the go-live review passed`
    : html`client ID <code>${app.clientId}</code><br>client secret <code>${issued}</code>
<br><strong role="alert">Shown once: copy it now. The sandbox keeps only a hash of it and will not show it again.</strong>`;
}

/**
 * The dashboard's button for an offer: a free trial charges nothing today, so it says the trial
 * (as the checkout does), never "Pay" its price.
 */
function payLabel(offer: Parameters<typeof priceLine>[0]): string {
  return startsFreeTrial(offer)
    ? `Start the ${offer.trialDays}-day free trial in this browser`
    : `Pay ${offerPrice(offer, 'en')} in this browser`;
}

/** GET /sandbox: what is configured, and a button per offer to pay for it in this browser. */
export function dashboardPage(view: DashboardView): PageOptions {
  const { catalog, review, pendingSecrets, environment, apiBaseUrl } = view;
  const { config } = catalog;
  const sellable = (offer: (typeof config.offers)[number]) =>
    offer.active && offer.applications.some((clientId) => review.isLive(clientId));
  const offers = config.offers.map(
    (
      offer,
    ) => html`<section class="offer"><strong>${offer.name}</strong><span>${priceLine(offer, 'en')}</span>
<p class="muted">${offer.type} · ${offer.offerUid} · ${offer.active ? 'active' : 'inactive'} · ${offer.operators.join(', ')}</p>
${
  sellable(offer)
    ? html`<form method="post" action="/sandbox/checkout"><input type="hidden" name="offerUid" value="${offer.offerUid}">
<button type="submit">${payLabel(offer)}</button></form>
<form method="post" action="/sandbox/checkout"><input type="hidden" name="offerUid" value="${offer.offerUid}">
<input type="hidden" name="presentation" value="embedded"><button type="submit" class="secondary">Try the embedded checkout</button></form>`
    : ''
}</section>`,
  );
  const applications = config.applications.map((app) => {
    const live = review.isLive(app.clientId);
    const approval = live
      ? html`<br>status: live`
      : html`<br>status: <strong>not live until approved</strong>
<form method="post" action="/sandbox/applications/${encodeURIComponent(app.clientId)}/approve"><button type="submit" class="secondary">Approve (pass the go-live review)</button></form>`;
    return html`<p><strong>${app.name}</strong><br>${clientCredentials(app, live, pendingSecrets)}<br>
webhook secret <code>${app.webhook.secret}</code><br>capabilities: ${app.capabilities.join(', ') || 'none'}${approval}</p>`;
  });
  const numbers = Object.entries(config.testNumbers).map(
    ([msisdn, outcome]) =>
      html`<li><bdi dir="ltr"><code>${msisdn}</code></bdi> ${OUTCOME_TEXT[outcome]}</li>`,
  );
  const operators = config.operators.map(
    (operator) =>
      html`<li>${operator.name} (<code>${operator.code}</code>): numbers ${operator.numbering.prefixes.join(', ')}; consent ${operator.consentMethods.join(', ')}</li>`,
  );
  const body = html`${environmentBadge(environment, 'en')}
${card('Offers', html`${offers}`)}
${card(
  `Applications (${environment} environment)`,
  html`<p class="muted">API base URL and checkout host <code>${apiBaseUrl}</code></p>${applications}`,
)}
${card('Operators', html`<ul>${operators}</ul><p class="muted">Any other well-formed number of these operators succeeds.</p>`)}
${card('Test numbers', html`<ul>${numbers}</ul>`)}
${card(
  'Tools',
  html`<ul><li><a href="/sandbox/inbox">SMS inbox</a></li><li><a href="/sandbox/webhooks">Webhook deliveries (JSON)</a></li><li><a href="/sandbox/subscriptions">Subscriptions (JSON)</a></li><li><a href="/sandbox/clock">Clock (JSON)</a></li><li><a href="/sandbox/chaos">Delivery chaos (JSON)</a></li><li><a href="/sandbox/config">Config (JSON)</a></li></ul>`,
)}`;
  return { locale: 'en', title: `dcbkit sandbox: ${environment} environment`, body };
}

// Sandbox time is UTC; a person reads "22 Nov 2026, 22:18:06 UTC" more easily than an ISO string.
const INBOX_TIME = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
});

/** How the inbox tells the two directions apart, without the operators' "MT"/"MO" jargon. */
function smsHeading(message: SmsMessage): SafeHtml {
  const from = html`<bdi dir="ltr">${message.from}</bdi>`;
  const to = html`<bdi dir="ltr">${message.to}</bdi>`;
  return message.direction === 'MT'
    ? html`Text to the phone ${to}, from ${from}`
    : html`Text from the phone ${from}, to ${to}`;
}

/** GET /sandbox/inbox: the SMS the mock operator carried, newest first. */
export function inboxPage(messages: SmsMessage[], msisdn: string | undefined): PageOptions {
  const rows = messages.map(
    (
      message,
    ) => html`<section class="offer"><p class="muted"><time datetime="${message.sentAt}">${INBOX_TIME.format(new Date(message.sentAt))} UTC</time> · ${smsHeading(message)}</p>
<p>${message.text}</p></section>`,
  );
  const title = msisdn ? `SMS inbox of ${msisdn}` : 'SMS inbox';
  const empty = html`<p class="muted">No SMS yet.</p>`;
  return {
    locale: 'en',
    title,
    body: card(
      title,
      html`${messages.length > 0 ? rows : empty}<a class="button secondary" href="">Refresh</a>`,
    ),
  };
}

/** GET /sandbox/return: where the dashboard's checkouts come back to, with the server-side truth. */
export function returnPage(
  hint: { paymentUid: string; status: string },
  payment: PaymentRecord | undefined,
): PageOptions {
  const body = card(
    'Back from checkout',
    html`<p>Return URL hint: payment <code>${hint.paymentUid}</code>, status <code>${hint.status}</code>.</p>
<p>Server-side read: ${payment ? html`<strong>${payment.status}</strong>` : 'no such payment'}.
The hint is for the thank-you screen only; access comes from the webhook or this read.</p>
<a class="button" href="/sandbox">Back to the sandbox</a>`,
  );
  return { locale: 'en', title: 'Back from checkout', body };
}

/** A stand-in partner page that mounts an embedded checkout in an iframe. */
export function embeddedDemoPage(checkoutUrl: string): PageOptions {
  const body = html`<div class="card"><span class="badge">Sandbox: a partner page</span><h1>Embedded checkout</h1>
<p class="muted">The checkout below runs inside an iframe of this page, as presentation "embedded" does.</p></div>
<iframe class="checkout" src="${checkoutUrl}" title="Checkout"></iframe>`;
  return { locale: 'en', title: 'Embedded checkout', body };
}
