import type { OfferDefinition } from '../schemas/offer.js';

/** One offer a view has rows for. */
export interface OfferSeries {
  readonly offerUid: string;
  readonly productUid: string;
}

export const offerSeriesId = (series: OfferSeries) => `${series.offerUid}\n${series.productUid}`;

/**
 * The offers a view has rows for: the partner's offers that `shown` keeps, in their order (zeros
 * included, so a chart has no gaps), then any other offer the records name (`found`), by uid.
 */
export function offerSeriesOf(
  offers: Iterable<OfferDefinition>,
  found: ReadonlyMap<string, OfferSeries>,
  shown: (offer: OfferDefinition) => boolean,
): OfferSeries[] {
  const series = new Map<string, OfferSeries>();
  for (const offer of offers) {
    if (!shown(offer)) continue;
    const one = { offerUid: offer.offerUid, productUid: offer.productUid };
    series.set(offerSeriesId(one), one);
  }
  const others = [...found.values()]
    .filter((one) => !series.has(offerSeriesId(one)))
    .sort((a, b) => (offerSeriesId(a) < offerSeriesId(b) ? -1 : 1));
  return [...series.values(), ...others];
}
