import { type AccessReason, accessReason } from '../access/access-reason.js';
import { type LinePaysTwice, linePaysTwice } from '../access/line-twins.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { isLineStore } from '../store/line-store.js';
import { type ExplainContext, type ServiceView, serviceView } from './explain.js';

export interface ExplainLineOptions {
  /**
   * Also read the service's own view of each live subscription (`GET /v1/subscriptions/{uid}`)
   * and flag where it and the store disagree, as `explain` does. Default false.
   */
  read?: boolean;
}

/** One product an account holds on the line. */
export interface LineProduct {
  readonly productUid: string;
  readonly entitlement: Entitlement;
  /** Access now, and why. */
  readonly reason: AccessReason;
  /** With `read: true`, for a live subscription: the service's view. */
  readonly service?: ServiceView;
}

/** `kit.explainLine(subscriberUid)`: who holds what on one phone line, and what it pays twice. */
export interface LineExplanation {
  readonly subscriberUid: string;
  /** When it was explained (the kit's clock). */
  readonly at: string;
  /** The accounts with an entitlement on the line, in accountKey order, each with its products. */
  readonly accounts: ReadonlyArray<{
    readonly accountKey: string;
    readonly products: readonly LineProduct[];
  }>;
  /** The products the line holds live subscriptions of under several accounts: each renewal is charged once per subscription. */
  readonly paysTwice: readonly LinePaysTwice[];
  /** False when the store cannot answer by line (no `listBySubscriberUid`): everything else is then empty. */
  readonly linesKept: boolean;
}

/** Who holds what on the line, from the store alone, or with `read: true` beside the service's view. */
export async function explainLine(
  context: Omit<ExplainContext, 'store'> & { store: EntitlementStore },
  subscriberUid: string,
  options: ExplainLineOptions = {},
): Promise<LineExplanation> {
  const at = context.now();
  const { store } = context;
  if (!isLineStore(store))
    return { subscriberUid, at: at.toISOString(), accounts: [], paysTwice: [], linesKept: false };
  const held = await store.listBySubscriberUid(subscriberUid);
  const products = await Promise.all(
    held.map(async (entitlement): Promise<LineProduct> => {
      const product = {
        productUid: entitlement.productUid,
        entitlement,
        reason: accessReason(entitlement, at),
      };
      const live = entitlement.subscriptionUid !== null && entitlement.status !== 'REVOKED';
      if (!options.read || !live) return product;
      return { ...product, service: await serviceView(context, entitlement, at) };
    }),
  );
  const accounts: { accountKey: string; products: LineProduct[] }[] = [];
  for (const product of products) {
    const last = accounts.at(-1);
    if (last?.accountKey === product.entitlement.accountKey) last.products.push(product);
    else accounts.push({ accountKey: product.entitlement.accountKey, products: [product] });
  }
  return { subscriberUid, at: at.toISOString(), accounts, paysTwice: linePaysTwice(held), linesKept: true };
}
