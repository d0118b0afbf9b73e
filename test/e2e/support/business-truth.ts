import { type FunnelCounted, funnelTruth } from '../../metrics/funnel-truth.js';
import { type LifecycleTruth, lifecycleTruth } from '../../metrics/lifecycle-truth.js';
import { MONTHS, PLANTED_UNTIL, type PlantedWorld } from '../../metrics/planted-world.js';
import { type Figures, sandboxFigures } from '../../metrics/sandbox-figures.js';
import { type Counted, sandboxTruth, withoutEmpty } from '../../metrics/sandbox-truth.js';

/** The period the walk asks the Business page for: the planted months, by month. */
export const WALKED = { from: MONTHS[0] as string, to: PLANTED_UNTIL, interval: 'month' } as const;

/**
 * Everything the Business page shows for the walked period, worked out from the sandbox's own
 * records alone (never from the kit): each view's oracle, by month, keyed `<month>|<offerUid>`
 * (revenue movements `<month>|<offerUid>|<currency>`).
 */
export interface BusinessTruth {
  /** kit.metrics' rows (sandbox-truth.ts), empty rows left out. */
  counted: Map<string, Counted>;
  /** The checkouts the shop's routes started (funnel-truth.ts), empty rows left out. */
  checkouts: Map<string, FunnelCounted>;
  /** Trials, revenue movements and cohorts (lifecycle-truth.ts). */
  lifecycle: LifecycleTruth;
  /** The sandbox's subscription offers, in its config's order, with their price's currency. */
  subscriptionOffers: Array<{ offerUid: string; currency: string }>;
  /**
   * The headline figures of one offer ('') or all, over `period` beside `previous` (by default the
   * walked months beside the four before).
   */
  figures(offerUid: string, period?: Period, previous?: Period): Promise<Figures>;
}

/** A period of the headline figures: from its first instant to the next after it (ISO 8601). */
export interface Period {
  readonly from: string;
  readonly to: string;
}

/** The four months before the walked ones: the headline figures' previous period, as the kit takes it. */
const PREVIOUS: Period = { from: '2029-09-01T00:00:00.000Z', to: WALKED.from };

export async function businessTruth(world: PlantedWorld): Promise<BusinessTruth> {
  const { sandbox } = world;
  return {
    counted: withoutEmpty(await sandboxTruth(sandbox, WALKED, world.spent)),
    checkouts: await funnelTruth(sandbox, WALKED, world.routed),
    lifecycle: await lifecycleTruth(sandbox, WALKED.from, new Date(WALKED.to)),
    subscriptionOffers: sandbox.config.offers
      .filter((offer) => offer.type === 'SUBSCRIPTION')
      .map((offer) => ({ offerUid: offer.offerUid, currency: offer.price.currency })),
    figures: (offerUid, period = WALKED, previous = PREVIOUS) =>
      sandboxFigures(sandbox, period, previous, {
        routed: world.routed,
        ...(offerUid === '' ? {} : { offerUid }),
      }),
  };
}

/** Whether a truth key (`<month>|<offerUid>[|<currency>]`) is of `month` and of the chosen offer ('' for all). */
export function keyOf(key: string, month: string, offerUid: string, currency?: string): boolean {
  const [start, offer, money] = key.split('|');
  return (
    start === month &&
    (offerUid === '' || offer === offerUid) &&
    (currency === undefined || money === currency)
  );
}

/** The sum of `pick` over a truth's rows of `month` and the chosen offer. */
export function monthSum<Row>(
  truth: ReadonlyMap<string, Row>,
  month: string,
  offerUid: string,
  pick: (row: Row) => number,
  currency?: string,
): number {
  let sum = 0;
  for (const [key, row] of truth) if (keyOf(key, month, offerUid, currency)) sum += pick(row);
  return sum;
}
