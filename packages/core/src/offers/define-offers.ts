import * as z from 'zod';
import type { CodesOf } from '../errors/code-groups.js';
import { DcbError } from '../errors/dcb-error.js';
import { optionError } from '../errors/option-error.js';
import { type OfferDefinition, type OfferDefinitionInput, offerDefinitionSchema } from '../schemas/offer.js';

/** The partner's offers, validated, with lookups. Made by defineOffers. */
export interface Offers {
  readonly list: readonly OfferDefinition[];
  /**
   * The offers a shop shows: every offer but those sold only in another's place once its trial is
   * used (named by an `onceTrialUsed`); `offerStanding` says which one to sell.
   */
  readonly listed: readonly OfferDefinition[];
  /** The offer with this uid, or undefined when it is not in your list. */
  get(offerUid: string): OfferDefinition | undefined;
  /** Every offer that sells this product (a monthly and a yearly plan, say). */
  forProduct(productUid: string): readonly OfferDefinition[];
}

/**
 * Why defineOffers refused the list (a DcbError; `details.index` is the offending offer's position).
 * - `invalid_offer`: an offer does not match the offer schema (`details.issues` says where).
 * - `duplicate_offer`: two offers share an offerUid.
 * - `mixed_product_types`: offers of one product disagree on the type, or on how long a spent unit
 *   gives access (`unitAccessSeconds`); an entitlement has one of each.
 */
export type OfferDefinitionErrorCode = CodesOf<'offer'>;

function offerError(
  code: OfferDefinitionErrorCode,
  index: number,
  message: string,
  issues: readonly z.core.$ZodIssue[] = [],
): DcbError<OfferDefinitionErrorCode> {
  return new DcbError(code, message, { details: { index, issues } });
}

/**
 * Your copy of the offers configured in the partner console (the API has no offer read). The
 * webhook handler uses it to know what each offer grants; your pages use it to show name, price
 * and billing period before checkout. Throws a DcbError (`invalid_offer`, `duplicate_offer`,
 * `mixed_product_types`, `invalid_option`).
 *
 * @example
 * export const offers = defineOffers([
 *   {
 *     offerUid: 'off_premium_monthly',
 *     productUid: 'prod_premium',
 *     name: 'Premium',
 *     type: 'SUBSCRIPTION',
 *     price: { amount: 4500, currency: 'TND' },
 *     billingPeriod: { unit: 'MONTH', count: 1 },
 *     trialDays: 7,
 *     gracePolicy: { days: 3, accessDuringGrace: true },
 *   },
 *   { offerUid: 'off_credits_10', productUid: 'prod_credits', name: '10 credits', type: 'CONSUMABLE', price: { amount: 2000, currency: 'TND' } },
 * ]);
 */
export function defineOffers(input: readonly OfferDefinitionInput[]): Offers {
  if (!Array.isArray(input)) throw optionError('defineOffers', 'offers', 'must be an array of offers.');
  const byUid = new Map<string, OfferDefinition>();
  const byProduct = new Map<string, OfferDefinition[]>();
  input.forEach((candidate, index) => {
    const parsed = offerDefinitionSchema.safeParse(candidate);
    if (!parsed.success) {
      throw offerError(
        'invalid_offer',
        index,
        `offers[${index}] is not a valid offer:\n${z.prettifyError(parsed.error)}`,
        parsed.error.issues,
      );
    }
    const offer = Object.freeze(parsed.data);
    if (byUid.has(offer.offerUid)) {
      throw offerError(
        'duplicate_offer',
        index,
        `offers[${index}]: offerUid ${offer.offerUid} appears twice.`,
      );
    }
    const siblings = byProduct.get(offer.productUid) ?? [];
    const other = siblings.find((sibling) => sibling.type !== offer.type);
    if (other) {
      throw offerError(
        'mixed_product_types',
        index,
        `offers[${index}]: ${offer.offerUid} is ${offer.type} but ${other.offerUid} sells the same product ${offer.productUid} as ${other.type}.`,
      );
    }
    const otherTerms = siblings.find((sibling) => sibling.unitAccessSeconds !== offer.unitAccessSeconds);
    if (otherTerms) {
      throw offerError(
        'mixed_product_types',
        index,
        `offers[${index}]: ${offer.offerUid} gives ${accessOfUnit(offer)} per unit spent but ${otherTerms.offerUid} sells the same product ${offer.productUid} with ${accessOfUnit(otherTerms)}; its units are counted together, so they must give the same.`,
      );
    }
    byUid.set(offer.offerUid, offer);
    byProduct.set(offer.productUid, [...siblings, offer]);
  });
  const list = Object.freeze([...byUid.values()]);
  list.forEach((offer, index) => {
    checkTrialReplacement(byUid, offer, index);
  });
  const replacements = new Set(list.flatMap((offer) => offer.onceTrialUsed ?? []));
  return {
    list,
    listed: Object.freeze(list.filter((offer) => !replacements.has(offer.offerUid))),
    get: (offerUid) => byUid.get(offerUid),
    forProduct: (productUid) => byProduct.get(productUid) ?? [],
  };
}

/**
 * An offer's `onceTrialUsed` must name an offer of the list that sells the same product with no
 * trial: what a returning subscriber can pay for.
 */
function checkTrialReplacement(
  byUid: ReadonlyMap<string, OfferDefinition>,
  offer: OfferDefinition,
  index: number,
): void {
  if (offer.onceTrialUsed === undefined || offer.trialDays === 0) return;
  const replacement = byUid.get(offer.onceTrialUsed);
  const problem =
    replacement === undefined
      ? 'is not in the list'
      : replacement.productUid !== offer.productUid
        ? `sells ${replacement.productUid}, not ${offer.productUid}`
        : replacement.trialDays > 0
          ? 'has a trial of its own'
          : undefined;
  if (problem !== undefined) {
    throw offerError(
      'invalid_offer',
      index,
      `offers[${index}]: ${offer.offerUid}'s onceTrialUsed offer ${offer.onceTrialUsed} ${problem}; it must sell the same product with no trial.`,
    );
  }
}

function accessOfUnit(offer: OfferDefinition): string {
  return offer.unitAccessSeconds === undefined
    ? 'no unitAccessSeconds'
    : `unitAccessSeconds ${offer.unitAccessSeconds}`;
}

/** True for what defineOffers returns (as opposed to a plain array of offers). */
export function isOffers(value: Offers | readonly OfferDefinitionInput[]): value is Offers {
  return !Array.isArray(value);
}
