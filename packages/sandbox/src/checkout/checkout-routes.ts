import { consentMethodSchema } from '@dcbkit/core/schemas';
import { parseForm } from '../http/read-body.js';
import { type Reply, redirectReply } from '../http/reply.js';
import type { RouteRequest, Router } from '../http/router.js';
import type { Network } from '../operator/consent-methods.js';
import type { PaymentService } from '../payments/payment-service.js';
import type { CheckoutFlow, StepResult } from './checkout-flow.js';
import { notFoundPage, processingPage, resultPage, returnUrlFor } from './checkout-pages.js';
import { htmlReply } from './layout.js';
import { negotiateLocale } from './locale.js';
import { messagesFor } from './messages.js';
import {
  backToPage,
  type CheckoutRequest,
  consentStepReply,
  numberStepReply,
  pageReply,
  type StepPageSettings,
  stepAnswer,
} from './step-replies.js';

export interface CheckoutDeps extends StepPageSettings {
  payments: PaymentService;
  flow: CheckoutFlow;
}

type StepHandler = (request: CheckoutRequest) => Reply;

/**
 * The checkout host at /c/{paymentUid}: plain HTML forms, one POST per step, each answered with a
 * redirect back to the page (post/redirect/get) or, for a refusal, the same step with the reason
 * (`step-replies.ts`). These routes only translate HTTP: the flow and its consent session decide.
 */
export function addCheckoutRoutes(router: Router, deps: CheckoutDeps): void {
  const { flow } = deps;
  const answer = (request: CheckoutRequest, result: StepResult) => stepAnswer(deps, request, result);
  const steps: Record<string, StepHandler> = {
    number: (request) => submitNumber(deps, request),
    'consent/pin': (request) =>
      answer(request, flow.submitPin(request.payment, request.form.get('pin') ?? '', request.locale)),
    'consent/pin/resend': (request) => answer(request, flow.resendPin(request.payment, request.locale)),
    'consent/header-enrichment': (request) =>
      answer(request, flow.confirmHeaderEnrichment(request.payment, request.locale)),
    'consent/mo-sms': (request) =>
      answer(request, flow.sendKeyword(request.payment, request.form.get('keyword') ?? '', request.locale)),
    method: (request) => {
      const method = consentMethodSchema.safeParse(request.form.get('method'));
      const chosen = method.success ? method.data : undefined;
      return answer(request, flow.switchMethod(request.payment, chosen, request.locale));
    },
    'change-number': (request) => answer(request, flow.changeNumber(request.payment, request.locale)),
    abandon: (request) => answer(request, flow.abandon(request.payment)),
  };
  router.add(
    'GET',
    '/c/:paymentUid',
    checkoutRoute(deps, (request) => view(deps, request), 'GET'),
  );
  for (const [path, step] of Object.entries(steps)) {
    router.add('POST', `/c/:paymentUid/${path}`, checkoutRoute(deps, step, 'POST'));
  }
}

/** Finds the payment and the language, reads the form, and hands them to the step. */
function checkoutRoute(deps: CheckoutDeps, handler: StepHandler, method: 'GET' | 'POST') {
  return (request: RouteRequest): Reply => {
    const locale = negotiateLocale(headerText(request.headers['accept-language']));
    const payment = deps.payments.find(request.params.paymentUid ?? '');
    if (!payment) return htmlReply(404, notFoundPage({ locale, environment: deps.environment }));
    // A step posted after the payment moved on (paid, expired, cancelled) just shows where it is now.
    if (method === 'POST' && payment.status !== 'REQUIRES_ACTION') return backToPage(payment);
    const form = method === 'POST' ? parseForm(request.body) : new URLSearchParams();
    return handler({ payment, locale, form });
  };
}

/** The page of the payment as it stands: the step it waits on, processing, or its result. */
function view(deps: CheckoutDeps, request: CheckoutRequest): Reply {
  const { payment, locale } = request;
  const { environment } = deps;
  if (payment.status === 'REQUIRES_ACTION') {
    const session = deps.flow.session(payment.paymentUid);
    return session ? consentStepReply(deps, request, session, 200) : numberStepReply(deps, request, 200);
  }
  if (payment.status === 'PROCESSING')
    return pageReply(payment, 200, processingPage(payment, { locale, environment }));
  if (payment.status === 'SUCCEEDED' && payment.request.presentation !== 'embedded') {
    return redirectReply(returnUrlFor(payment));
  }
  return pageReply(payment, 200, resultPage(payment, { locale, environment }));
}

function submitNumber(deps: CheckoutDeps, request: CheckoutRequest): Reply {
  const { payment, form, locale } = request;
  const t = messagesFor(locale);
  const prefill = payment.request.prefill;
  const typed = prefill?.msisdnEditable === false ? (prefill.msisdn ?? '') : (form.get('msisdn') ?? '');
  const network: Network = form.get('network') === 'WIFI' ? 'WIFI' : 'MOBILE_DATA';
  const result = deps.flow.submitNumber(payment, typed, network, locale);
  if (result.kind === 'number-refused') {
    return numberStepReply(deps, request, 422, {
      error: `${t.refusal[result.code]} (${result.code})`,
      typed,
      network,
    });
  }
  if (result.kind === 'no-method') {
    return numberStepReply(deps, request, 422, { error: t.noMethodOnWifi, typed, network });
  }
  return stepAnswer(deps, request, result);
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
