import type { SandboxOffer } from '../config/config-schema.js';
import type { NumberRefusalCode } from '../operator/number-lookup.js';
import type { PaymentRecord } from '../records/payment-record.js';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine.js';

/** Refusals because of what the subscriber already has: a trial used, a one-time item owned. */
export type HistoryRefusalCode = 'SUB-108' | 'CAT-109';
export type PurchaseRefusalCode = NumberRefusalCode | HistoryRefusalCode;

export interface Refusal<Code extends PurchaseRefusalCode> {
  ok: false;
  code: Code;
  message: string;
}

/**
 * What each subscriber has had: trials (kept by the subscription engine) and one-time items owned,
 * `clientId\nsubscriberUid\nproductUid`: CAT-109 without a scan, and after the payment is freed.
 */
export class PurchaseHistory {
  private readonly owned = new Set<string>();

  constructor(private readonly subscriptions: Pick<SubscriptionEngine, 'hasHadTrial'>) {}

  /** SUB-108 for a second trial of the product, CAT-109 for a one-time item already owned. */
  refusalFor(
    clientId: string,
    offer: SandboxOffer,
    subscriberUid: string,
  ): Refusal<HistoryRefusalCode> | undefined {
    const { productUid } = offer;
    if (
      offer.type === 'SUBSCRIPTION' &&
      offer.trialDays > 0 &&
      this.subscriptions.hasHadTrial(clientId, subscriberUid, productUid)
    ) {
      return {
        ok: false,
        code: 'SUB-108',
        message: `This subscriber has already had a trial of ${productUid}.`,
      };
    }
    if (offer.type === 'NON_CONSUMABLE' && this.owned.has(ownedKey(clientId, subscriberUid, productUid))) {
      return { ok: false, code: 'CAT-109', message: `This subscriber already owns ${productUid}.` };
    }
    return undefined;
  }

  /** A succeeded payment of a one-time item: its subscriber owns it from now on. */
  recordPurchase(record: PaymentRecord): void {
    if (record.offer.type === 'NON_CONSUMABLE' && record.subscriberUid !== undefined) {
      this.owned.add(ownedKey(record.clientId, record.subscriberUid, record.offer.productUid));
    }
  }

  /** Owned one-time items, for the state file. */
  ownedKeys(): string[] {
    return [...this.owned];
  }

  restore(owned: readonly string[]): void {
    for (const key of owned) this.owned.add(key);
  }
}

function ownedKey(clientId: string, subscriberUid: string, productUid: string): string {
  return `${clientId}\n${subscriberUid}\n${productUid}`;
}
