import type { DcbKit } from '@dcbkit/core';
import type { Sandbox } from '@dcbkit/sandbox';
import { bucketOf, type TruthBuckets } from './sandbox-truth.js';

type FunnelRow = Awaited<ReturnType<DcbKit['checkoutFunnel']>>['rows'][number];

/** The numbers of a funnel row, as the test compares them. */
export type FunnelCounted = { -readonly [K in keyof Omit<FunnelRow, 'start' | 'productUid'>]: FunnelRow[K] };

/**
 * The definitions of docs/operations.md ("Checkout funnel"), written here again so that a bug in
 * the kit's shows: the codes that say the line could not pay for the offer at all.
 */
const REFUSALS = new Set(['RSK-101', 'SBR-102', 'SBR-104', 'SUB-108', 'CAT-109']);

interface SandboxPayment {
  paymentUid: string;
  offerUid: string;
  status: string;
  expiresAt: string;
  failureCode?: string;
}

function empty(offerUid: string): FunnelCounted {
  return { offerUid, started: 0, succeeded: 0, refused: {}, failed: {}, expired: 0, canceled: 0, pending: 0 };
}

const add = (byCode: Record<string, number>, code: string) => {
  byCode[code] = (byCode[code] ?? 0) + 1;
};

/**
 * Bucket by bucket and offer, the checkouts the shop's routes created as the sandbox recorded
 * each payment: when it was created (its expiry less the configured checkout lifetime: the
 * sandbox's view has no creation time), its status and its failure code. Nothing here reads the kit.
 */
export async function funnelTruth(
  sandbox: Sandbox,
  buckets: TruthBuckets,
  routed: Iterable<string>,
): Promise<Map<string, FunnelCounted>> {
  const truth = new Map<string, FunnelCounted>();
  const lifetimeMs = sandbox.config.payments.expirySeconds * 1000;
  for (const paymentUid of routed) {
    const answer = await fetch(`${sandbox.apiBaseUrl}/sandbox/payments/${paymentUid}`);
    const { data: payment } = (await answer.json()) as { data: SandboxPayment };
    const createdAt = new Date(Date.parse(payment.expiresAt) - lifetimeMs).toISOString();
    if (createdAt < buckets.from || createdAt >= buckets.to) continue;
    const key = `${bucketOf(createdAt, buckets.interval)}|${payment.offerUid}`;
    const row = truth.get(key) ?? empty(payment.offerUid);
    truth.set(key, row);
    row.started++;
    const code = payment.failureCode;
    if (payment.status === 'SUCCEEDED') row.succeeded++;
    else if (payment.status === 'CANCELED') row.canceled++;
    else if ((payment.status === 'FAILED' || payment.status === 'EXPIRED') && code && REFUSALS.has(code)) {
      add(row.refused as Record<string, number>, code);
    } else if (payment.status === 'FAILED') add(row.failed as Record<string, number>, code ?? 'none');
    else if (payment.status === 'EXPIRED') row.expired++;
    else row.pending++;
  }
  for (const row of truth.values()) {
    row.refused = sortedCodes(row.refused);
    row.failed = sortedCodes(row.failed);
  }
  return truth;
}

/** The kit's funnel rows in the same shape, by bucket and offer (rows with no checkout left out). */
export function kitFunnel(rows: readonly FunnelRow[]): Map<string, FunnelCounted> {
  const counted = new Map<string, FunnelCounted>();
  for (const { start, productUid: _product, ...row } of rows) {
    if (JSON.stringify({ ...row, offerUid: '' }) === JSON.stringify(empty(''))) continue;
    counted.set(`${start}|${row.offerUid}`, row);
  }
  return counted;
}

function sortedCodes(byCode: Readonly<Record<string, number>>): Record<string, number> {
  // Code-unit order, as the kit's rows are (JSON comparison sees the order).
  return Object.fromEntries(Object.entries(byCode).sort(([a], [b]) => (a < b ? -1 : 1)));
}
