import type { DcbKit } from '@dcbkit/core';
import type { PageContext } from '../views.js';
import { stateText } from './history-rows.js';

/** What the page names products with. */
type Naming = Pick<PageContext, 'offerName' | 't' | 'date'>;

/** A phone line the operations view shows, from `kit.explainLine`. */
export interface LineView {
  subscriberUid: string;
  /** False when the store cannot answer by line: the page says so. */
  linesKept: boolean;
  accounts: {
    accountKey: string;
    products: {
      productUid: string;
      name: string;
      /** In words, as the history shows states. */
      status: string;
      hasAccess: boolean;
      subscriptionUid: string | null;
    }[];
  }[];
  paysTwice: {
    productUid: string;
    name: string;
    subscriptionUids: readonly string[];
    accountKeys: readonly string[];
  }[];
}

/** The subscriberUid typed in the line search form or carried by a link; undefined when there is none. */
export function subscriberUidFrom(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const line = value.trim();
  return line === '' || line.length > 200 ? undefined : line;
}

/** GET /ops/line?line=…: who holds what on the line, and what it pays twice. */
export async function lineView(kit: DcbKit, subscriberUid: string, words: Naming): Promise<LineView> {
  const nameOf = (productUid: string, offerUid?: string) =>
    words.offerName(offerUid ? kit.offers.get(offerUid) : kit.offers.forProduct(productUid)[0]) || productUid;
  const explained = await kit.explainLine(subscriberUid);
  return {
    subscriberUid,
    linesKept: explained.linesKept,
    accounts: explained.accounts.map(({ accountKey, products }) => ({
      accountKey,
      products: products.map(({ entitlement, reason }) => ({
        productUid: entitlement.productUid,
        name: nameOf(entitlement.productUid, entitlement.offerUid),
        status: stateText(words, entitlement.status, null),
        hasAccess: reason.hasAccess,
        subscriptionUid: entitlement.subscriptionUid,
      })),
    })),
    paysTwice: explained.paysTwice.map((twice) => ({ ...twice, name: nameOf(twice.productUid) })),
  };
}
