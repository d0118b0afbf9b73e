import { randomInt } from 'node:crypto';
import type { ConsentMethod } from '@dcbkit/core';
import { consentMethodSchema } from '@dcbkit/core/schemas';
import type { SandboxClock } from '../clock/clock.js';
import type { Catalog } from '../config/catalog.js';
import type { EnvironmentName } from '../environment/environment-config.js';
import { parseForm } from '../http/read-body.js';
import { type Reply, redirectReply } from '../http/reply.js';
import type { RouteRequest, Router } from '../http/router.js';
import { consentMethodsFor, consentPlan, type Network } from '../operator/consent-methods.js';
import type { SmsInbox } from '../operator/sms-inbox.js';
import type { PaymentRecord } from '../payments/payment-record.js';
import type { PaymentService } from '../payments/payment-service.js';
import {
  consentStepPage,
  notFoundPage,
  numberStepPage,
  offerName,
  offerPrice,
  processingPage,
  resultPage,
  returnUrlFor,
} from './checkout-pages.js';
import type { CheckoutSessions, ConsentSession } from './checkout-sessions.js';
import { htmlReply, type PageOptions } from './layout.js';
import { type Locale, negotiateLocale } from './locale.js';
import { messagesFor } from './messages.js';

export interface CheckoutDeps {
  catalog: Catalog;
  clock: SandboxClock;
  payments: PaymentService;
  sessions: CheckoutSessions;
  sms: SmsInbox;
  /** Which environment's checkout host this is; every page says so. */
  environment: EnvironmentName;
}

interface CheckoutContext {
  request: RouteRequest;
  payment: PaymentRecord;
  locale: Locale;
  form: URLSearchParams;
}

type StepHandler = (context: CheckoutContext) => Reply;

/**
 * The checkout host at /c/{paymentUid}: plain HTML forms, one POST per step, each answered with a
 * redirect back to the page (post/redirect/get) or, for a refusal, the same step with the reason.
 */
export function addCheckoutRoutes(router: Router, deps: CheckoutDeps): void {
  const { catalog, clock, payments, sessions, sms, environment } = deps;
  const policy = catalog.config.consentPolicy;

  const page = (context: Pick<CheckoutContext, 'payment'>, status: number, options: PageOptions): Reply =>
    htmlReply(status, options, {
      framable: context.payment.request.presentation === 'embedded',
      formTargets: [new URL(context.payment.request.returnUrl).origin],
    });
  const backToPage = (payment: PaymentRecord) =>
    redirectReply(`/c/${encodeURIComponent(payment.paymentUid)}`);

  const showNumberStep = (
    context: CheckoutContext,
    status: number,
    error?: string,
    typed?: string,
    network?: Network,
  ): Reply => {
    const prefill = context.payment.request.prefill;
    const locked = prefill?.msisdnEditable === false;
    return page(
      context,
      status,
      numberStepPage({
        payment: context.payment,
        locale: context.locale,
        environment,
        msisdn: locked ? (prefill?.msisdn ?? '') : (typed ?? prefill?.msisdn ?? ''),
        locked,
        network: network ?? 'MOBILE_DATA',
        ...(error !== undefined ? { error } : {}),
      }),
    );
  };

  const showConsentStep = (
    context: CheckoutContext,
    session: ConsentSession,
    status: number,
    error?: string,
  ): Reply =>
    page(
      context,
      status,
      consentStepPage({
        payment: context.payment,
        session,
        locale: context.locale,
        environment,
        shortCode: policy.moSms.shortCode,
        pinLength: policy.pin.length,
        canChangeNumber: context.payment.request.prefill?.msisdnEditable !== false,
        ...(error !== undefined ? { error } : {}),
      }),
    );

  const sendPin = (context: CheckoutContext, session: ConsentSession): void => {
    const code = String(randomInt(0, 10 ** policy.pin.length)).padStart(policy.pin.length, '0');
    session.pin = {
      code,
      expiresAt: new Date(clock.now().getTime() + policy.pin.ttlSeconds * 1000),
      attemptsLeft: policy.pin.maxAttempts,
    };
    const { offer } = context.payment;
    sms.record({
      direction: 'MT',
      from: session.line.operator.name,
      to: session.line.msisdn,
      text: messagesFor(context.locale).pinSms(
        code,
        offerName(offer, context.locale),
        offerPrice(offer, context.locale),
      ),
      paymentUid: context.payment.paymentUid,
    });
  };

  const openMethod = (context: CheckoutContext, session: ConsentSession, method: ConsentMethod): void => {
    session.method = method;
    if (method === 'PIN' && !session.pin) sendPin(context, session);
    if (method === 'MO_SMS' && !session.keyword) session.keyword = `PAY ${randomInt(1000, 10_000)}`;
  };

  const giveConsent = (context: CheckoutContext, session: ConsentSession): Reply => {
    sessions.delete(context.payment.paymentUid);
    payments.consent(context.payment, session.line);
    return backToPage(context.payment);
  };

  const view: StepHandler = (context) => {
    const { payment } = context;
    if (payment.status === 'REQUIRES_ACTION') {
      const session = sessions.get(payment.paymentUid);
      return session ? showConsentStep(context, session, 200) : showNumberStep(context, 200);
    }
    if (payment.status === 'PROCESSING')
      return page(context, 200, processingPage(payment, { locale: context.locale, environment }));
    if (payment.status === 'SUCCEEDED' && payment.request.presentation !== 'embedded') {
      return redirectReply(returnUrlFor(payment));
    }
    return page(context, 200, resultPage(payment, { locale: context.locale, environment }));
  };

  const submitNumber: StepHandler = (context) => {
    const { payment, form, locale } = context;
    const t = messagesFor(locale);
    const prefill = payment.request.prefill;
    const typed = prefill?.msisdnEditable === false ? (prefill.msisdn ?? '') : (form.get('msisdn') ?? '');
    const network: Network = form.get('network') === 'WIFI' ? 'WIFI' : 'MOBILE_DATA';
    const line = payments.checkLine(payment.clientId, payment.offer, payment.request.operator, typed);
    if (!line.ok)
      return showNumberStep(context, 422, `${t.refusal[line.code]} (${line.code})`, typed, network);
    const methods = consentPlan(consentMethodsFor(line.operator, payment.offer, policy), network);
    const [first] = methods;
    if (first === undefined) return showNumberStep(context, 422, t.noMethodOnWifi, typed, network);
    const session: ConsentSession = { line, network, methods, method: first };
    openMethod(context, session, first);
    sessions.set(payment.paymentUid, session);
    return backToPage(payment);
  };

  const withSession =
    (handler: (context: CheckoutContext, session: ConsentSession) => Reply): StepHandler =>
    (context) => {
      const session = sessions.get(context.payment.paymentUid);
      return session ? handler(context, session) : backToPage(context.payment);
    };

  const submitPin = withSession((context, session) => {
    const t = messagesFor(context.locale);
    const pin = session.pin;
    if (session.method !== 'PIN' || !pin) return backToPage(context.payment);
    if (clock.now().getTime() > pin.expiresAt.getTime())
      return showConsentStep(context, session, 422, t.pinExpired);
    if ((context.form.get('pin') ?? '').trim() === pin.code) return giveConsent(context, session);
    pin.attemptsLeft--;
    if (pin.attemptsLeft > 0) return showConsentStep(context, session, 422, t.pinWrong(pin.attemptsLeft));
    sessions.delete(context.payment.paymentUid);
    payments.abandon(context.payment, 'CONSENT_FAILED');
    return backToPage(context.payment);
  });

  const resendPin = withSession((context, session) => {
    if (session.method === 'PIN') sendPin(context, session);
    return backToPage(context.payment);
  });

  const confirmHeaderEnrichment = withSession((context, session) =>
    session.method === 'HEADER_ENRICHMENT' && session.network === 'MOBILE_DATA'
      ? giveConsent(context, session)
      : backToPage(context.payment),
  );

  const sendKeyword = withSession((context, session) => {
    if (session.method !== 'MO_SMS' || !session.keyword) return backToPage(context.payment);
    const text = (context.form.get('keyword') ?? '').trim();
    sms.record({
      direction: 'MO',
      from: session.line.msisdn,
      to: policy.moSms.shortCode,
      text,
      paymentUid: context.payment.paymentUid,
    });
    if (text.toUpperCase() !== session.keyword) {
      return showConsentStep(context, session, 422, messagesFor(context.locale).keywordWrong);
    }
    return giveConsent(context, session);
  });

  const switchMethod = withSession((context, session) => {
    const method = consentMethodSchema.safeParse(context.form.get('method'));
    if (method.success && session.methods.includes(method.data)) openMethod(context, session, method.data);
    return backToPage(context.payment);
  });

  const changeNumber: StepHandler = (context) => {
    if (context.payment.request.prefill?.msisdnEditable !== false)
      sessions.delete(context.payment.paymentUid);
    return backToPage(context.payment);
  };

  const abandon: StepHandler = (context) => {
    sessions.delete(context.payment.paymentUid);
    payments.abandon(context.payment, 'ABANDONED');
    return backToPage(context.payment);
  };

  const checkoutRoute =
    (handler: StepHandler, method: 'GET' | 'POST') =>
    (request: RouteRequest): Reply => {
      const locale = negotiateLocale(headerText(request.headers['accept-language']));
      const payment = payments.find(request.params.paymentUid ?? '');
      if (!payment) return htmlReply(404, notFoundPage({ locale, environment }));
      // A step posted after the payment moved on (paid, expired, cancelled) just shows where it is now.
      if (method === 'POST' && payment.status !== 'REQUIRES_ACTION') return backToPage(payment);
      const form = method === 'POST' ? parseForm(request.body) : new URLSearchParams();
      return handler({ request, payment, locale, form });
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

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
