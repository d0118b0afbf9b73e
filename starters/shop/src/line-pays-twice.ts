import type { DcbKit } from '@dcbkit/core';
import { isHistoryStore } from '@dcbkit/core/store';

// One path for "this line pays twice", for the operator and the subscriber alike: the kit's
// `line_pays_twice` history entries (written in both accounts' histories when the second
// subscription's payment lands) name the lines, and `kit.explainLine` says whether each still pays
// twice now, so that a line fixed (a subscription cancelled and ended) leaves both notices. From
// the store, so every instance shows the same.

/** How far back the notices look: the latest history entries (everyone's, or one account's). */
const RECENT_ENTRIES = 500;

/** The lines recent `line_pays_twice` entries name, of everyone or of one account. */
async function namedLines(kit: DcbKit, accountKey?: string): Promise<string[]> {
  const { store } = kit;
  if (!isHistoryStore(store)) return [];
  const recent = await store.listHistory({ limit: RECENT_ENTRIES, accountKey });
  const named = new Set<string>();
  for (const entry of recent) {
    if (entry.decision === 'line_pays_twice' && entry.subscriberUid) named.add(entry.subscriberUid);
  }
  return [...named].sort();
}

/** The lines the operations view's banner names: every line that pays twice now. */
export async function linesPayingTwice(kit: DcbKit): Promise<string[]> {
  const lines = await namedLines(kit);
  const still = await Promise.all(
    lines.map(async (line) => ((await kit.explainLine(line)).paysTwice.length > 0 ? line : undefined)),
  );
  return still.filter((line): line is string => line !== undefined);
}

/** A product the subscriber's line pays twice for, and this account's own subscription of it. */
export interface OwnLinePaysTwice {
  productUid: string;
  /** This account's subscription: the one its page may cancel. */
  subscriptionUid: string;
}

/**
 * What the account's own lines will charge twice for at the next renewal, with the account's
 * subscription of each. A subscription cancelled at period end (PRE_CANCELED) still counts for the
 * operator until it ends, but will not renew: once this account's, or every other one, is
 * cancelled, the line pays once from then and the subscriber is no longer told.
 */
export async function accountPaysTwice(kit: DcbKit, accountKey: string): Promise<OwnLinePaysTwice[]> {
  const found: OwnLinePaysTwice[] = [];
  for (const line of await namedLines(kit, accountKey)) {
    const explained = await kit.explainLine(line);
    const statusOf = (account: string, productUid: string) =>
      explained.accounts
        .find((held) => held.accountKey === account)
        ?.products.find((product) => product.productUid === productUid)?.entitlement.status;
    for (const twice of explained.paysTwice) {
      const renewing = twice.accountKeys.filter(
        (account) => statusOf(account, twice.productUid) !== 'PRE_CANCELED',
      );
      const subscriptionUid = twice.subscriptionUids[twice.accountKeys.indexOf(accountKey)];
      if (subscriptionUid === undefined || !renewing.includes(accountKey) || renewing.length < 2) continue;
      found.push({ productUid: twice.productUid, subscriptionUid });
    }
  }
  return found;
}
