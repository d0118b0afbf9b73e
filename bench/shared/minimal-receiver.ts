import { createFloorVerifier } from './floor.js';

/**
 * The minimal receiver: what a partner would write by hand for one product, and the reference
 * the targets are set against. The floor (signature, tolerance, JSON.parse), then a Set of
 * the events seen to answer a replay as a duplicate, and a Map from account to what it bought. No
 * schema, no bounds on memory, no history: everything dcbkit does beyond this is its overhead.
 */
export type MinimalReceiver = (
  rawBody: Buffer,
  header: string | undefined,
  nowSeconds: number,
) => 'applied' | 'duplicate';

interface PaymentEvent {
  event: string;
  paymentUid: string;
  offerUid: string;
  metadata?: { accountKey?: string };
}

export function createMinimalReceiver(secret: string): MinimalReceiver {
  const verify = createFloorVerifier(secret);
  const seen = new Set<string>();
  const owned = new Map<string, string>();
  return (rawBody, header, nowSeconds) => {
    const event = verify(rawBody, header, nowSeconds) as PaymentEvent;
    const key = `${event.event}:${event.paymentUid}`;
    if (seen.has(key)) return 'duplicate';
    seen.add(key);
    owned.set(event.metadata?.accountKey ?? event.paymentUid, event.offerUid);
    return 'applied';
  };
}
