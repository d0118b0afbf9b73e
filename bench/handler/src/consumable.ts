/**
 * What a consumable purchase costs once the account has bought many times: the whole handler
 * applying a credit purchase for an account with 100,000 previous orders, against one for an
 * account with a single previous order. Orders are built through the handler itself, as the
 * service would deliver them, up to checkpoints of 1,000, 10,000 and 100,000; building stops
 * when it exceeds its time budget (a purchase whose cost grows with the orders held makes the
 * build quadratic), and the verdict then says how far it got. Target: at 100,000 within 2x.
 */

import { memoryLedger, memoryStore } from '@dcbkit/core';
import { createWebhookHandler } from '@dcbkit/core/web';
import { formatCount, pairedRatio, signBody, spread } from '@dcbkit-bench/shared';
import type { SignedRequest } from './events.js';
import type { PartResult } from './part.js';

const SECRET = 'whsec_bench_consumable_0123456789';
const CHECKPOINTS = [1_000, 10_000, 100_000];
const TARGET_ORDERS = 100_000;
const TARGET = 2;
const BUILD_BUDGET_MS = Number(process.env.BENCH_BUILD_BUDGET_MS ?? 10_000);
const ROUNDS = 7;
const PURCHASES_PER_ROUND = 50;
const BUILD_CHUNK = 500;
const T0 = Date.parse('2026-11-21T12:00:00.000Z');
const APPLIED = JSON.stringify({ received: true, outcome: 'applied' });

const offers = [
  {
    offerUid: 'off_credits_10',
    productUid: 'prod_credits',
    name: '10 credits',
    type: 'CONSUMABLE' as const,
    price: { amount: 2000, currency: 'TND' },
  },
];

export async function consumable(): Promise<PartResult> {
  const signedAt = new Date();
  const t = Math.floor(signedAt.getTime() / 1000);
  const handler = createWebhookHandler({
    secrets: SECRET,
    store: memoryStore(),
    ledger: memoryLedger({ max: 200_000 }),
    offers,
    now: () => signedAt,
  });
  let serial = 0;
  /** A new credit purchase (its own payment and order) for `account`. */
  const purchase = (account: string): SignedRequest => {
    serial++;
    const body = JSON.stringify({
      event: 'payment.succeeded',
      paymentUid: `pay_c${serial}`,
      status: 'SUCCEEDED',
      orderId: `ord_c${serial}`,
      productUid: 'prod_credits',
      offerUid: 'off_credits_10',
      subscriberUid: `sbr_${account}`,
      metadata: { accountKey: account },
      occurredAt: new Date(T0 + serial * 1000).toISOString(),
    });
    const rawBody = Buffer.from(body);
    return {
      rawBody,
      headers: { 'content-type': 'application/json', 'service-signature': signBody(rawBody, SECRET, t) },
    };
  };
  const apply = async (requests: SignedRequest[]): Promise<number> => {
    const start = process.hrtime.bigint();
    for (const request of requests) {
      const { body } = await handler(request);
      if (body !== APPLIED) throw new Error(`a purchase was answered ${body}`);
    }
    return Number(process.hrtime.bigint() - start) / requests.length;
  };

  let smallAccounts = 0;
  /** Accounts with exactly one previous order, to buy again: the "at 1 order" case. */
  const accountsWithOneOrder = async (count: number): Promise<string[]> => {
    const accounts = Array.from({ length: count }, () => `small_${smallAccounts++}`);
    await apply(accounts.map(purchase));
    return accounts;
  };

  const lines: string[] = [];
  const ratios = new Map<number, number>();
  let orders = 0;
  let built = 0;
  let outOfBudget = false;
  await accountsWithOneOrder(2_000); // warm-up
  for (const checkpoint of CHECKPOINTS) {
    while (orders < checkpoint && !outOfBudget) {
      const chunk = Array.from({ length: Math.min(BUILD_CHUNK, checkpoint - orders) }, () => purchase('big'));
      const start = Date.now();
      await apply(chunk);
      built += Date.now() - start;
      orders += chunk.length;
      outOfBudget = built > BUILD_BUDGET_MS;
    }
    if (orders < checkpoint) break;
    const atMany: number[] = [];
    const atOne: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const many = Array.from({ length: PURCHASES_PER_ROUND }, () => purchase('big'));
      const one = (await accountsWithOneOrder(PURCHASES_PER_ROUND)).map(purchase);
      if (round % 2 === 0) {
        atMany.push(await apply(many));
        atOne.push(await apply(one));
      } else {
        atOne.push(await apply(one));
        atMany.push(await apply(many));
      }
      orders += PURCHASES_PER_ROUND;
    }
    const r = pairedRatio(atOne, atMany); // cost at many / cost at one, per round
    ratios.set(checkpoint, r.median);
    const many = spread(atMany);
    lines.push(
      `  at ${formatCount(checkpoint, 7)} previous orders ${formatCount(many.median, 9)} ns/purchase (${formatCount(many.min)}–${formatCount(many.max)}); at 1 order ${formatCount(spread(atOne).median, 7)} ns; cost ratio ${r.median.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)})`,
    );
  }
  const reached = ratios.get(TARGET_ORDERS);
  const verdictLine =
    reached !== undefined
      ? `  ${reached <= TARGET ? 'PASS' : 'MISS'}  purchase at 100,000 previous orders / at 1 order: ${reached.toFixed(2)} (target <= ${TARGET})`
      : `  MISS  purchase at 100,000 previous orders / at 1 order: not reached; building through the handler passed its ${BUILD_BUDGET_MS / 1000} s budget at ${orders.toLocaleString('en')} orders (target <= ${TARGET})`;
  return {
    lines: [
      `consumable purchase cost by previous orders of the account (whole handler; ${ROUNDS} paired rounds of ${PURCHASES_PER_ROUND} purchases)`,
      ...lines,
      verdictLine,
    ],
  };
}
