import type { Money } from '../schemas/primitives.js';
import type { LiveChange, MetricEntry, MetricKind } from './metric-entry.js';
import type { MetricSighting } from './metric-sighting.js';

/** One fact of a sighting, of its offer (the event's own offer and product when it names them). */
export function entry(
  sighting: MetricSighting,
  key: string,
  kind: MetricKind,
  occurredAt: string,
  money: Money,
  live: LiveChange,
): MetricEntry {
  const { event, offer } = sighting;
  return {
    key,
    kind,
    offerUid: event.offerUid ?? offer.offerUid,
    productUid: event.productUid ?? offer.productUid,
    occurredAt,
    count: 1,
    amount: money.amount,
    currency: money.currency,
    live,
    ...(sighting.source === 'read' ? { provisional: true as const } : {}),
  };
}

/** No money, in the price's currency: the facts that count, not collect. */
export function zero(price: Money): Money {
  return { amount: 0, currency: price.currency };
}
