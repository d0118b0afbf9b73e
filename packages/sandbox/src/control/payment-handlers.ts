import { htmlReply } from '../checkout/layout.js';
import { parseForm } from '../http/read-body.js';
import { redirectReply, successReply } from '../http/reply.js';
import type { RouteHandler } from '../http/router.js';
import { toPaymentView } from '../records/payment-record.js';
import { ApiError } from '../shared/api-error.js';
import type { ControlDeps } from './control-deps.js';
import { embeddedDemoPage, returnPage } from './control-pages.js';

/** GET /sandbox/payments: every application's payments, oldest first. */
export function listPayments({ payments }: ControlDeps): RouteHandler {
  return () =>
    successReply(
      200,
      payments.list().map((record) => ({ clientId: record.clientId, ...toPaymentView(record) })),
    );
}

/** GET /sandbox/payments/{paymentUid}: one payment, with what its checkout was created with. */
export function readPayment({ payments }: ControlDeps): RouteHandler {
  return (request) => {
    const record = payments.find(request.params.paymentUid ?? '');
    if (!record) throw new ApiError('SBX-404', `No payment ${request.params.paymentUid ?? ''}.`);
    // The request too: test helpers pick a number the offer is sold on.
    return successReply(200, {
      clientId: record.clientId,
      ...toPaymentView(record),
      request: {
        operator: record.request.operator ?? null,
        prefill: record.request.prefill ?? null,
        presentation: record.request.presentation ?? 'redirect',
      },
    });
  };
}

/**
 * POST /sandbox/checkout (the dashboard's form) `offerUid`, `presentation`: a payment for the offer's
 * first application, then its checkout, redirected to or framed in a stand-in partner page.
 */
export function startDashboardCheckout({ catalog, review, payments, apiBaseUrl }: ControlDeps): RouteHandler {
  return (request) => {
    const form = parseForm(request.body);
    const offer = catalog.offer(form.get('offerUid') ?? '');
    const clientId = offer?.applications[0];
    const application = clientId === undefined ? undefined : catalog.application(clientId);
    if (!offer || !application) throw new ApiError('SBX-400', 'Unknown offer.');
    if (!review.isLive(application.clientId)) {
      throw new ApiError('SBX-400', `${application.clientId} is not live until approved.`);
    }
    const presentation = form.get('presentation') === 'embedded' ? 'embedded' : 'redirect';
    const payment = payments.create(application, {
      mode: 'HOSTED',
      offerUid: offer.offerUid,
      returnUrl: `${apiBaseUrl}/sandbox/return`,
      presentation,
    });
    return presentation === 'embedded'
      ? htmlReply(200, embeddedDemoPage(payment.checkoutUrl), { framesSelf: true })
      : redirectReply(payment.checkoutUrl);
  };
}

/** GET /sandbox/return?paymentUid=&status=: where the dashboard's checkouts come back to. */
export function showReturnPage({ payments }: ControlDeps): RouteHandler {
  return (request) => {
    const paymentUid = request.url.searchParams.get('paymentUid') ?? '';
    const status = request.url.searchParams.get('status') ?? '';
    return htmlReply(200, returnPage({ paymentUid, status }, payments.find(paymentUid)));
  };
}
