import { consentMethodSchema } from '@dcbkit/core/schemas';
import type { EnvironmentName } from '../config/environment-config.js';
import type { ConsentRefusal, ConsentSession } from '../consent/consent-session.js';
import { parseForm } from '../http/read-body.js';
import { type Reply, redirectReply } from '../http/reply.js';
import type { RouteRequest, Router } from '../http/router.js';
import type { Network } from '../operator/consent-methods.js';
import type { PaymentService } from '../payments/payment-service.js';
import { formTargetOf } from '../payments/return-url.js';
import type { PaymentRecord } from '../records/payment-record.js';
import type { CheckoutFlow, StepResult } from './checkout-flow.js';
import {
  consentStepPage,
  notFoundPage,
  numberStepPage,
  processingPage,
  resultPage,
  returnUrlFor,
} from './checkout-pages.js';
import { htmlReply, type PageOptions } from './layout.js';
import { type Locale, negotiateLocale } from './locale.js';
import { type Messages, messagesFor } from './messages.js';

export interface CheckoutDeps {
  payments: PaymentService;
  flow: CheckoutFlow;
  /** Shown on the consent step of the MO_SMS method. */
  shortCode: string;
  pinLength: number;
  /** Which environment's checkout host this is; every page says so. */
  environment: EnvironmentName;
}

interface CheckoutRequest {
  payment: PaymentRecord;
  locale: Locale;
  form: URLSearchParams;
}

type StepHandler = (request: CheckoutRequest) => Reply;

/**
 * The checkout host at /c/{paymentUid}: plain HTML forms, one POST per step, each answered with a
 * redirect back to the page (post/redirect/get) or, for a refusal, the same step with the reason.
 * These routes only translate HTTP: the flow and its consent session decide.
 */
export function addCheckoutRoutes(router: Router, deps: CheckoutDeps): void {
  const { payments, flow, environment } = deps;

  const page = (payment: PaymentRecord, status: number, options: PageOptions): Reply =>
    htmlReply(status, options, {
      framable: payment.request.presentation === 'embedded',
      formTargets: [formTargetOf(payment.request.returnUrl)],
    });

  const numberStep = (
    { payment, locale }: CheckoutRequest,
    status: number,
    shown: { error?: string; typed?: string; network?: Network } = {},
  ): Reply => {
    const prefill = payment.request.prefill;
    const locked = prefill?.msisdnEditable === false;
    return page(
      payment,
      status,
      numberStepPage({
        payment,
        locale,
        environment,
        msisdn: locked ? (prefill?.msisdn ?? '') : (shown.typed ?? prefill?.msisdn ?? ''),
        locked,
        network: shown.network ?? 'MOBILE_DATA',
        ...(shown.error !== undefined ? { error: shown.error } : {}),
      }),
    );
  };

  const consentStep = (
    { payment, locale }: CheckoutRequest,
    session: ConsentSession,
    status: number,
    error?: string,
  ): Reply =>
    page(
      payment,
      status,
      consentStepPage({
        payment,
        session,
        locale,
        environment,
        shortCode: deps.shortCode,
        pinLength: deps.pinLength,
        canChangeNumber: payment.request.prefill?.msisdnEditable !== false,
        ...(error !== undefined ? { error } : {}),
      }),
    );

  /** A consent-step result as a reply: a refusal shows the step again, anything else moves on. */
  const answer = (request: CheckoutRequest, result: StepResult): Reply =>
    result.kind === 'consent-refused'
      ? consentStep(request, result.session, 422, refusalText(messagesFor(request.locale), result.refusal))
      : backToPage(request.payment);

  const view: StepHandler = (request) => {
    const { payment, locale } = request;
    if (payment.status === 'REQUIRES_ACTION') {
      const session = flow.session(payment.paymentUid);
      return session ? consentStep(request, session, 200) : numberStep(request, 200);
    }
    if (payment.status === 'PROCESSING')
      return page(payment, 200, processingPage(payment, { locale, environment }));
    if (payment.status === 'SUCCEEDED' && payment.request.presentation !== 'embedded') {
      return redirectReply(returnUrlFor(payment));
    }
    return page(payment, 200, resultPage(payment, { locale, environment }));
  };

  const submitNumber: StepHandler = (request) => {
    const { payment, form, locale } = request;
    const t = messagesFor(locale);
    const prefill = payment.request.prefill;
    const typed = prefill?.msisdnEditable === false ? (prefill.msisdn ?? '') : (form.get('msisdn') ?? '');
    const network: Network = form.get('network') === 'WIFI' ? 'WIFI' : 'MOBILE_DATA';
    const result = flow.submitNumber(payment, typed, network, locale);
    if (result.kind === 'number-refused') {
      return numberStep(request, 422, {
        error: `${t.refusal[result.code]} (${result.code})`,
        typed,
        network,
      });
    }
    if (result.kind === 'no-method')
      return numberStep(request, 422, { error: t.noMethodOnWifi, typed, network });
    return answer(request, result);
  };

  const submitPin: StepHandler = (request) =>
    answer(request, flow.submitPin(request.payment, request.form.get('pin') ?? '', request.locale));

  const resendPin: StepHandler = (request) =>
    answer(request, flow.resendPin(request.payment, request.locale));

  const confirmHeaderEnrichment: StepHandler = (request) =>
    answer(request, flow.confirmHeaderEnrichment(request.payment, request.locale));

  const sendKeyword: StepHandler = (request) =>
    answer(request, flow.sendKeyword(request.payment, request.form.get('keyword') ?? '', request.locale));

  const switchMethod: StepHandler = (request) => {
    const method = consentMethodSchema.safeParse(request.form.get('method'));
    return answer(
      request,
      flow.switchMethod(request.payment, method.success ? method.data : undefined, request.locale),
    );
  };

  const changeNumber: StepHandler = (request) =>
    answer(request, flow.changeNumber(request.payment, request.locale));

  const abandon: StepHandler = (request) => answer(request, flow.abandon(request.payment));

  const checkoutRoute =
    (handler: StepHandler, method: 'GET' | 'POST') =>
    (request: RouteRequest): Reply => {
      const locale = negotiateLocale(headerText(request.headers['accept-language']));
      const payment = payments.find(request.params.paymentUid ?? '');
      if (!payment) return htmlReply(404, notFoundPage({ locale, environment }));
      // A step posted after the payment moved on (paid, expired, cancelled) just shows where it is now.
      if (method === 'POST' && payment.status !== 'REQUIRES_ACTION') return backToPage(payment);
      const form = method === 'POST' ? parseForm(request.body) : new URLSearchParams();
      return handler({ payment, locale, form });
    };

  router
    .add('GET', '/c/:paymentUid', checkoutRoute(view, 'GET'))
    .add('POST', '/c/:paymentUid/number', checkoutRoute(submitNumber, 'POST'))
    .add('POST', '/c/:paymentUid/consent/pin', checkoutRoute(submitPin, 'POST'))
    .add('POST', '/c/:paymentUid/consent/pin/resend', checkoutRoute(resendPin, 'POST'))
    .add('POST', '/c/:paymentUid/consent/header-enrichment', checkoutRoute(confirmHeaderEnrichment, 'POST'))
    .add('POST', '/c/:paymentUid/consent/mo-sms', checkoutRoute(sendKeyword, 'POST'))
    .add('POST', '/c/:paymentUid/method', checkoutRoute(switchMethod, 'POST'))
    .add('POST', '/c/:paymentUid/change-number', checkoutRoute(changeNumber, 'POST'))
    .add('POST', '/c/:paymentUid/abandon', checkoutRoute(abandon, 'POST'));
}

function backToPage(payment: PaymentRecord): Reply {
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

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
