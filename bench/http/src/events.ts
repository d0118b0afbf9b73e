import { writeFile } from 'node:fs/promises';
import { nowSeconds, signBody } from '@dcbkit-bench/shared';

export const SECRET = 'whsec_bench_http_0123456789';

export const OFFERS = [
  {
    offerUid: 'offer_unlock',
    productUid: 'prod_unlock',
    name: 'Unlock',
    type: 'NON_CONSUMABLE' as const,
    price: { amount: 15000, currency: 'TND' },
  },
];

/** Each body is padded to this size with a metadata note: the smallest case, 0.4 KiB. */
export const BODY_BYTES = 410;

/**
 * A purchase for its own account: `id` makes the event, its payment and its account new, so the
 * dcbkit route does the whole job (verify, claim, decide, store, complete) for each one.
 */
export function eventBody(id: string): string {
  const event = {
    event: 'payment.succeeded',
    paymentUid: `pay_${id}`,
    status: 'SUCCEEDED',
    orderId: `ord_${id}`,
    productUid: 'prod_unlock',
    offerUid: 'offer_unlock',
    subscriberUid: `sbr_${id}`,
    metadata: { accountKey: `user_${id}`, note: '' },
    occurredAt: '2026-11-21T12:00:00.000Z',
  };
  event.metadata.note = 'x'.repeat(Math.max(0, BODY_BYTES - JSON.stringify(event).length));
  return JSON.stringify(event);
}

/**
 * Writes a pool of signed requests for the load generator: one line of body, one line of
 * Service-Signature, per request. Signed now, so a pool must be used within the handler's 300 s
 * tolerance: run.ts writes a fresh one for every round.
 */
export async function writePool(path: string, ids: Iterable<string>): Promise<number> {
  const t = nowSeconds();
  const lines: string[] = [];
  for (const id of ids) {
    const body = eventBody(id);
    lines.push(body, signBody(body, SECRET, t));
  }
  await writeFile(path, `${lines.join('\n')}\n`);
  return lines.length / 2;
}

export function* idRange(prefix: string, first: number, count: number): Generator<string> {
  for (let n = first; n < first + count; n++) yield `${prefix}${n}`;
}
