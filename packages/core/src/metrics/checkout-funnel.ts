import type { OfferDefinition } from '../schemas/offer.js';
import { bucketIndexOf, bucketsOf, type MetricsInterval } from './buckets.js';
import { CHECKOUT_NO_CODE } from './checkout-facts.js';
import type { MetricDay } from './metric-day.js';
import type { MetricKind } from './metric-entry.js';

/** One bucket of one offer: the checkouts that started in it, and how they ended so far. */
export interface CheckoutFunnelRow {
  /** The bucket's first instant, ISO 8601 UTC. */
  readonly start: string;
  readonly offerUid: string;
  readonly productUid: string;
  /** Payments the partner routes created in this bucket. */
  readonly started: number;
  readonly succeeded: number;
  /** Refused, by the service's code: the line could not pay for this offer (RSK-101, SBR-102, SBR-104, SUB-108, CAT-109). */
  readonly refused: Readonly<Record<string, number>>;
  /** Failed, by the service's code (PAY-101, PAY-103); `none` when the service gave none. */
  readonly failed: Readonly<Record<string, number>>;
  readonly expired: number;
  readonly canceled: number;
  /** Started and not ended yet, as far as the kit knows: `started` less every ending. */
  readonly pending: number;
}

export interface CheckoutFunnelReport {
  /** The first bucket's start. */
  readonly from: string;
  /** The last bucket's end. */
  readonly to: string;
  readonly interval: MetricsInterval;
  /** Bucket by bucket, and within one bucket in the order of the offers. */
  readonly rows: CheckoutFunnelRow[];
}

interface Tally {
  started: number;
  succeeded: number;
  refused: Record<string, number>;
  failed: Record<string, number>;
  expired: number;
  canceled: number;
}

interface Offer {
  offerUid: string;
  productUid: string;
}

const COUNTS: Partial<Record<MetricKind, 'started' | 'succeeded' | 'expired' | 'canceled'>> = {
  checkout_started: 'started',
  checkout_succeeded: 'succeeded',
  checkout_expired: 'expired',
  checkout_canceled: 'canceled',
};

const BY_CODE: Partial<Record<MetricKind, 'refused' | 'failed'>> = {
  checkout_refused: 'refused',
  checkout_failed: 'failed',
};

/** True for the kinds the funnel counts (and the business report leaves out). */
export function isCheckoutKind(kind: MetricKind): boolean {
  return kind in COUNTS || kind in BY_CODE;
}

/**
 * The funnel's rows from a store's daily totals: a row for every bucket of every offer the partner
 * sells (zeros included, so a chart has no gaps) and of any other offer with checkouts. Every fact
 * of a checkout is dated when it started, so each checkout counts once, in that bucket, whenever it
 * ended. Currencies add up here: a checkout is counted, not priced. Pure.
 */
export function checkoutFunnel(
  query: { from: Date; to: Date; interval: MetricsInterval },
  days: readonly MetricDay[],
  offers: Iterable<OfferDefinition>,
): CheckoutFunnelReport {
  const buckets = bucketsOf(query.from, query.to, query.interval);
  const tallies = new Map<string, Tally>();
  const found = new Map<string, Offer>();
  for (const offer of offers)
    found.set(offerId(offer), { offerUid: offer.offerUid, productUid: offer.productUid });
  const others = new Map<string, Offer>();
  for (const day of days) {
    if (!isCheckoutKind(day.kind)) continue;
    const bucket = bucketIndexOf(day.day, buckets);
    if (bucket < 0) continue;
    const offer = { offerUid: day.offerUid, productUid: day.productUid };
    if (!found.has(offerId(offer))) others.set(offerId(offer), offer);
    const id = `${bucket}\n${offerId(offer)}`;
    const tally = tallies.get(id) ?? emptyTally();
    tallies.set(id, tally);
    const counted = COUNTS[day.kind];
    if (counted !== undefined) {
      tally[counted] += day.count;
      continue;
    }
    const byCode = tally[BY_CODE[day.kind] as 'refused' | 'failed'];
    const code = day.detail ?? CHECKOUT_NO_CODE;
    byCode[code] = (byCode[code] ?? 0) + day.count;
  }
  const series = [
    ...found.values(),
    ...[...others.values()].sort((a, b) => offerId(a).localeCompare(offerId(b))),
  ];
  const rows: CheckoutFunnelRow[] = [];
  for (const [index, start] of buckets.starts.entries()) {
    for (const offer of series) {
      rows.push(rowOf(start, offer, tallies.get(`${index}\n${offerId(offer)}`) ?? emptyTally()));
    }
  }
  return {
    from: buckets.starts[0]?.toISOString() ?? query.from.toISOString(),
    to: buckets.end.toISOString(),
    interval: query.interval,
    rows,
  };
}

function rowOf(start: Date, offer: Offer, tally: Tally): CheckoutFunnelRow {
  const ended = tally.succeeded + sum(tally.refused) + sum(tally.failed) + tally.expired + tally.canceled;
  return {
    start: start.toISOString(),
    offerUid: offer.offerUid,
    productUid: offer.productUid,
    started: tally.started,
    succeeded: tally.succeeded,
    refused: sorted(tally.refused),
    failed: sorted(tally.failed),
    expired: tally.expired,
    canceled: tally.canceled,
    pending: tally.started - ended,
  };
}

const emptyTally = (): Tally => ({
  started: 0,
  succeeded: 0,
  refused: {},
  failed: {},
  expired: 0,
  canceled: 0,
});

const sum = (byCode: Record<string, number>) => Object.values(byCode).reduce((a, b) => a + b, 0);

/** Codes in one order whatever the store's, without those at 0 (a row's JSON is then stable). */
function sorted(byCode: Record<string, number>): Record<string, number> {
  const codes = Object.keys(byCode)
    .filter((code) => byCode[code] !== 0)
    .sort();
  return Object.fromEntries(codes.map((code) => [code, byCode[code] as number]));
}

const offerId = (offer: Offer) => `${offer.offerUid}\n${offer.productUid}`;
