import type { EnvironmentName } from '../config/environment-config.js';
import type { ConsentRefusal, ConsentSession } from '../consent/consent-session.js';
import { type Reply, redirectReply } from '../http/reply.js';
import type { Network } from '../operator/consent-methods.js';
import { formTargetOf } from '../payments/return-url.js';
import type { PaymentRecord } from '../records/payment-record.js';
import type { StepResult } from './checkout-flow.js';
import { consentStepPage, numberStepPage } from './checkout-pages.js';
import { htmlReply, type PageOptions } from './layout.js';
import type { Locale } from './locale.js';
import { type Messages, messagesFor } from './messages.js';

/** A request to one checkout step: the payment, the customer's language, the posted form. */
export interface CheckoutRequest {
  payment: PaymentRecord;
  locale: Locale;
  form: URLSearchParams;
}

/** What every page of one checkout host says the same way. */
export interface StepPageSettings {
  /** Which environment's checkout host this is; every page says so. */
  environment: EnvironmentName;
  /** Shown on the consent step of the MO_SMS method. */
  shortCode: string;
  pinLength: number;
}

/** A checkout page: framable when embedded, its form allowed to post back to the return URL. */
export function pageReply(payment: PaymentRecord, status: number, options: PageOptions): Reply {
  return htmlReply(status, options, {
    framable: payment.request.presentation === 'embedded',
    formTargets: [formTargetOf(payment.request.returnUrl)],
  });
}

/** The number step, with what the customer typed and why it was refused, if it was. */
export function numberStepReply(
  settings: StepPageSettings,
  { payment, locale }: CheckoutRequest,
  status: number,
  shown: { error?: string; typed?: string; network?: Network } = {},
): Reply {
  const prefill = payment.request.prefill;
  const locked = prefill?.msisdnEditable === false;
  return pageReply(
    payment,
    status,
    numberStepPage({
      payment,
      locale,
      environment: settings.environment,
      msisdn: locked ? (prefill?.msisdn ?? '') : (shown.typed ?? prefill?.msisdn ?? ''),
      locked,
      network: shown.network ?? 'MOBILE_DATA',
      ...(shown.error !== undefined ? { error: shown.error } : {}),
    }),
  );
}

/** The consent step of the session's method, with the reason of a refusal, if any. */
export function consentStepReply(
  settings: StepPageSettings,
  { payment, locale }: CheckoutRequest,
  session: ConsentSession,
  status: number,
  error?: string,
): Reply {
  return pageReply(
    payment,
    status,
    consentStepPage({
      payment,
      session,
      locale,
      environment: settings.environment,
      shortCode: settings.shortCode,
      pinLength: settings.pinLength,
      canChangeNumber: payment.request.prefill?.msisdnEditable !== false,
      ...(error !== undefined ? { error } : {}),
    }),
  );
}

/** A consent-step result as a reply: a refusal shows the step again, anything else moves on. */
export function stepAnswer(settings: StepPageSettings, request: CheckoutRequest, result: StepResult): Reply {
  return result.kind === 'consent-refused'
    ? consentStepReply(
        settings,
        request,
        result.session,
        422,
        refusalText(messagesFor(request.locale), result.refusal),
      )
    : backToPage(request.payment);
}

/** Post/redirect/get: back to the payment's page, which shows where it is now. */
export function backToPage(payment: PaymentRecord): Reply {
  return redirectReply(`/c/${encodeURIComponent(payment.paymentUid)}`);
}

function refusalText(t: Messages, refusal: ConsentRefusal): string {
  switch (refusal.reason) {
    case 'pin-expired':
      return t.pinExpired;
    case 'pin-wrong':
      return t.pinWrong(refusal.attemptsLeft);
    case 'keyword-wrong':
      return t.keywordWrong;
  }
}
