import type { Entitlement } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';

/** Something the kit saw and decided on, as the metrics read it. */
export interface MetricSighting {
  /** A verified webhook event, or a read of the service stamped as one (`occurredAt`: when the read was sent). */
  readonly event: WebhookEvent;
  readonly source: 'event' | 'read';
  /** The event's offer, from the partner's offers. */
  readonly offer: OfferDefinition;
  /** The entitlement as it was held before this was applied. */
  readonly held: Entitlement | undefined;
  /**
   * The account the sighting was applied to, when the caller knows it (the held record may be
   * another subscription's, or none): a subscription's facts carry it for the lifecycle records.
   */
  readonly accountKey?: string | undefined;
}
