import type { WebhookEvent } from '../schemas/webhook-event.js';

/** ASCII's unit separator: made for this, and never part of an id or a timestamp. */
const SEPARATOR = '\u001f';

/**
 * The identity of a webhook event, for de-duplication. Events carry no id, so the key is built
 * from the fields that tell one event from another: the name, paymentUid, subscriptionUid,
 * orderId and subscriptionStatus when present (empty when not), and occurredAt, joined by U+001F.
 * A redelivery has the same key even though its signature timestamp differs. subscriptionStatus
 * is there because a cancellation and its withdrawal are both `subscription.updated` and may share
 * an instant: PRE_CANCELED and ACTIVE keep them apart. Override it with the handler's `eventKey`
 * option.
 *
 * @example
 * eventKey(event).split('\u001f'); // ['payment.succeeded', 'pay_123', '', 'ord_9', '', '2026-11-21T12:00:00.000Z']
 */
export function eventKey(event: WebhookEvent): string {
  return (
    event.event +
    SEPARATOR +
    (event.paymentUid ?? '') +
    SEPARATOR +
    (event.subscriptionUid ?? '') +
    SEPARATOR +
    (event.orderId ?? '') +
    SEPARATOR +
    (event.subscriptionStatus ?? '') +
    SEPARATOR +
    event.occurredAt
  );
}
