import { successReply } from '../http/reply.js';
import type { RouteHandler } from '../http/router.js';
import { ApiError } from '../shared/api-error.js';
import type { WebhookDelivery } from '../webhooks/delivery-record.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { ControlDeps } from './control-deps.js';

/** GET /sandbox/webhooks[?paymentUid=&event=&status=&clientId=]: events with their attempts, oldest first. */
export function listWebhooks({ outbox }: ControlDeps): RouteHandler {
  return (request) => {
    const { searchParams } = request.url;
    const matches = (field: string | undefined, wanted: string | null) => wanted === null || field === wanted;
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
  };
}

/** GET /sandbox/webhooks/{id}: one event and its attempts. */
export function readWebhook({ outbox }: ControlDeps): RouteHandler {
  return (request) => successReply(200, deliveryOrThrow(outbox, request.params.id));
}

/** POST /sandbox/webhooks/{id}/replay: posts the event once more, signed afresh. */
export function replayWebhook({ outbox }: ControlDeps): RouteHandler {
  return async (request) => {
    const delivery = deliveryOrThrow(outbox, request.params.id);
    if (outbox.webhookUrl(delivery.clientId) === null) {
      throw new ApiError('SBX-400', `Application ${delivery.clientId} has no webhook URL to replay to.`);
    }
    return successReply(200, await outbox.replay(delivery.id));
  };
}

function deliveryOrThrow(outbox: WebhookOutbox, id: string | undefined): WebhookDelivery {
  const delivery = outbox.get(id ?? '');
  if (!delivery) throw new ApiError('SBX-404', `No webhook delivery ${id ?? ''}.`);
  return delivery;
}
