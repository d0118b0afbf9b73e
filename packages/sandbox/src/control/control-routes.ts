import { z } from 'zod';
import { ApiError } from '../api/api-error.js';
import { apiRoute } from '../api/api-route.js';
import { htmlReply } from '../checkout/layout.js';
import type { Catalog } from '../config/catalog.js';
import type { EnvironmentName } from '../environment/environment-config.js';
import type { GoLiveReview } from '../environment/go-live-review.js';
import { parseForm } from '../http/read-body.js';
import { redirectReply, successReply } from '../http/reply.js';
import type { RouteRequest, Router } from '../http/router.js';
import type { SmsInbox } from '../operator/sms-inbox.js';
import { toPaymentView } from '../payments/payment-record.js';
import type { PaymentService } from '../payments/payment-service.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { dashboardPage, embeddedDemoPage, inboxPage, returnPage } from './control-pages.js';
import { readControlBody } from './read-control-body.js';

export interface ControlDeps {
  catalog: Catalog;
  payments: PaymentService;
  outbox: WebhookOutbox;
  sms: SmsInbox;
  review: GoLiveReview;
  environment: EnvironmentName;
  apiBaseUrl: string;
}

const webhookUrlBodySchema = z.strictObject({ url: z.url({ protocol: /^https?$/ }).nullable() });

/**
 * Endpoints the real service does not have, all under /sandbox/ of each environment's host: a
 * dashboard, the SMS inbox, webhook deliveries and replay, each application's webhook URL, and the
 * go-live review of production applications.
 */
export function addControlRoutes(router: Router, deps: ControlDeps): void {
  const { catalog, payments, outbox, sms, review, environment } = deps;
  const knownApplication = (clientId: string | undefined) => {
    const application = catalog.application(clientId ?? '');
    if (!application) throw new ApiError('SBX-404', `No application ${clientId ?? ''} in ${environment}.`);
    return application;
  };

  router
    .add('GET', '/', () => redirectReply('/sandbox', 302))
    .add('GET', '/sandbox', () =>
      htmlReply(200, dashboardPage({ catalog, review, environment, apiBaseUrl: deps.apiBaseUrl })),
    )
    .add(
      'POST',
      '/sandbox/applications/:clientId/approve',
      apiRoute((request) => {
        const { clientId } = knownApplication(request.params.clientId);
        review.approve(clientId);
        // A form on the dashboard posts here too; send a person back to it.
        if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
          return redirectReply('/sandbox');
        }
        return successReply(200, { clientId, environment, live: true });
      }),
    )
    .add('GET', '/sandbox/applications', () =>
      successReply(
        200,
        catalog.config.applications.map((app) => ({
          clientId: app.clientId,
          name: app.name,
          environment,
          live: review.isLive(app.clientId),
          webhookUrl: outbox.webhookUrl(app.clientId),
        })),
      ),
    )
    .add('GET', '/sandbox/config', () => successReply(200, catalog.config))
    .add(
      'GET',
      '/sandbox/webhooks',
      apiRoute((request) => {
        const { searchParams } = request.url;
        const matches = (field: string | undefined, wanted: string | null) =>
          wanted === null || field === wanted;
        const deliveries = outbox
          .list()
          .filter(
            (delivery) =>
              matches(delivery.payload.paymentUid, searchParams.get('paymentUid')) &&
              matches(delivery.event, searchParams.get('event')) &&
              matches(delivery.status, searchParams.get('status')) &&
              matches(delivery.clientId, searchParams.get('clientId')),
          );
        return successReply(200, deliveries);
      }),
    )
    .add(
      'GET',
      '/sandbox/webhooks/:id',
      apiRoute((request) => successReply(200, deliveryOrThrow(outbox, request.params.id))),
    )
    .add(
      'POST',
      '/sandbox/webhooks/:id/replay',
      apiRoute(async (request) => {
        const delivery = deliveryOrThrow(outbox, request.params.id);
        if (outbox.webhookUrl(delivery.clientId) === null) {
          throw new ApiError('SBX-400', `Application ${delivery.clientId} has no webhook URL to replay to.`);
        }
        return successReply(200, await outbox.replay(delivery.id));
      }),
    )
    .add(
      'PUT',
      '/sandbox/applications/:clientId/webhook-url',
      apiRoute((request) => {
        const { clientId } = knownApplication(request.params.clientId);
        const { url } = readControlBody(
          request,
          webhookUrlBodySchema,
          '{ "url": "https://..." } or { "url": null }',
        );
        outbox.setWebhookUrl(clientId, url);
        return successReply(200, { clientId, url });
      }),
    )
    .add('GET', '/sandbox/payments', () =>
      successReply(
        200,
        payments.list().map((record) => ({ clientId: record.clientId, ...toPaymentView(record) })),
      ),
    )
    .add(
      'GET',
      '/sandbox/payments/:paymentUid',
      apiRoute((request) => {
        const record = payments.find(request.params.paymentUid ?? '');
        if (!record) throw new ApiError('SBX-404', `No payment ${request.params.paymentUid ?? ''}.`);
        // What the checkout was created with too: test helpers pick a number the offer is sold on.
        return successReply(200, {
          clientId: record.clientId,
          ...toPaymentView(record),
          request: {
            operator: record.request.operator ?? null,
            prefill: record.request.prefill ?? null,
            presentation: record.request.presentation ?? 'redirect',
          },
        });
      }),
    )
    .add('GET', '/sandbox/sms', (request) => successReply(200, sms.list(smsFilter(request))))
    .add('GET', '/sandbox/inbox', (request) =>
      htmlReply(
        200,
        inboxPage(sms.list(smsFilter(request)), request.url.searchParams.get('msisdn') ?? undefined),
      ),
    )
    .add(
      'POST',
      '/sandbox/checkout',
      apiRoute((request) => {
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
          returnUrl: `${deps.apiBaseUrl}/sandbox/return`,
          presentation,
        });
        return presentation === 'embedded'
          ? htmlReply(200, embeddedDemoPage(payment.checkoutUrl), { framesSelf: true })
          : redirectReply(payment.checkoutUrl);
      }),
    )
    .add('GET', '/sandbox/return', (request) => {
      const paymentUid = request.url.searchParams.get('paymentUid') ?? '';
      const status = request.url.searchParams.get('status') ?? '';
      return htmlReply(200, returnPage({ paymentUid, status }, payments.find(paymentUid)));
    });
}

function deliveryOrThrow(outbox: WebhookOutbox, id: string | undefined) {
  const delivery = outbox.get(id ?? '');
  if (!delivery) throw new ApiError('SBX-404', `No webhook delivery ${id ?? ''}.`);
  return delivery;
}

function smsFilter(request: RouteRequest): { msisdn?: string; paymentUid?: string } {
  // A "+" typed in a query string arrives as a space.
  const msisdn = request.url.searchParams
    .get('msisdn')
    ?.trim()
    .replace(/^(?=[0-9])/, '+');
  const paymentUid = request.url.searchParams.get('paymentUid');
  return { ...(msisdn ? { msisdn } : {}), ...(paymentUid ? { paymentUid } : {}) };
}
