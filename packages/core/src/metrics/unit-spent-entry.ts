import type { Entitlement } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { MetricEntry } from './metric-entry.js';

/**
 * The fact of a CONSUMABLE unit used, from the entitlement the spend wrote: the count of units used
 * names it, so one spend counts once however often its record is read back.
 */
export function unitSpentEntry(spent: Entitlement, offer: OfferDefinition, at: Date): MetricEntry {
  return {
    key: `spend:${spent.accountKey}:${spent.productUid}:${spent.unitsUsed}`,
    kind: 'unit_spent',
    offerUid: spent.offerUid,
    productUid: spent.productUid,
    occurredAt: at.toISOString(),
    count: 1,
    amount: 0,
    currency: offer.price.currency,
    live: 0,
  };
}
