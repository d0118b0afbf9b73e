import { type AccountView, Browser, readAccountPage } from './browser.js';
import { type ServiceRecords, type ServiceSubscription, subscriptionGivesAccess } from './service-records.js';
import type { SubscriberRecord } from './subscriber.js';

const ACCOUNT_KEY = 'accountKey';
const PREMIUM = { productUid: 'prod_premium', name: 'Premium, monthly' };
const UNLOCK = { productUid: 'prod_full_unlock', name: 'Full unlock' };
const DAY_PASS = 'prod_day_pass';

export interface Finding {
  accountId: string;
  what: string;
}

export interface Verdict {
  /** Payments the service says SUCCEEDED (trials included: their payment succeeds at no charge). */
  purchases: number;
  subscriptionsStarted: number;
  renewalsCollected: number;
  /** Charges for an account and product beyond the first: a second unlock, a second live subscription. */
  doubleCharges: number;
  /** Lines with two accounts' live subscriptions to one product at once (reported, by linePolicy 'report'). */
  linesPayingTwice: number;
  /** The service says entitled, the shop's account page says no access. */
  lostGrants: number;
  /** The shop's account page says access, the service says not entitled. */
  wrongAccess: number;
  /** Passes bought per the service minus passes spent per the subscribers, against the shop's count. */
  miscountedUnits: number;
  findings: Finding[];
}

/**
 * Judges the shop by the service's records: the sandbox's payments (whose metadata names the
 * account) and subscriptions, against what each account's page in the shop says.
 */
export async function judge(
  records: ServiceRecords,
  subscribers: readonly SubscriberRecord[],
  shopUrl: string,
): Promise<Verdict> {
  const accountOfPayment = new Map(
    records.payments.map((payment) => [payment.paymentUid, payment.metadata?.[ACCOUNT_KEY]]),
  );
  const findings: Finding[] = [];
  const succeeded = records.payments.filter((payment) => payment.status === 'SUCCEEDED');
  const subscriptionsOf = new Map<string, ServiceSubscription[]>();
  for (const subscription of records.subscriptions) {
    const account = accountOfPayment.get(subscription.paymentUid) ?? '?';
    subscriptionsOf.set(account, [...(subscriptionsOf.get(account) ?? []), subscription]);
  }

  let doubleCharges = 0;
  for (const [account, subscriptions] of subscriptionsOf) {
    const overlapping = overlaps(subscriptions);
    doubleCharges += overlapping;
    if (overlapping > 0) {
      const story = subscriptions
        .map(
          (s) =>
            `${s.subscriptionUid} ${s.offerUid} ${s.status} line ${s.subscriberUid.slice(0, 10)} from ${s.createdAt} to ${s.endedAt ?? '-'} (cancelAt ${s.cancelAt ?? '-'}, ${s.charges.length} charges)`,
        )
        .join('; ');
      findings.push({ accountId: account, what: `${overlapping + 1} live subscriptions at once: ${story}` });
    }
  }
  const unlocksOf = countBy(
    succeeded.filter((p) => p.productUid === UNLOCK.productUid),
    (p) => p.metadata?.[ACCOUNT_KEY] ?? '?',
  );
  for (const [account, count] of unlocksOf) {
    if (count > 1) {
      doubleCharges += count - 1;
      findings.push({ accountId: account, what: `unlock paid ${count} times` });
    }
  }
  const passesOf = countBy(
    succeeded.filter((p) => p.productUid === DAY_PASS),
    (p) => p.metadata?.[ACCOUNT_KEY] ?? '?',
  );

  let lostGrants = 0;
  let wrongAccess = 0;
  let miscountedUnits = 0;
  for (const subscriber of subscribers) {
    const account = subscriber.accountId;
    const view = await readShopAccount(shopUrl, account);
    const premiumTruth = (subscriptionsOf.get(account) ?? []).some((s) => subscriptionGivesAccess(s.status));
    const unlockTruth = (unlocksOf.get(account) ?? 0) > 0;
    for (const [product, truth] of [
      [PREMIUM, premiumTruth],
      [UNLOCK, unlockTruth],
    ] as const) {
      const shop = view.access[product.name] ?? false;
      if (truth && !shop) {
        lostGrants++;
        findings.push({
          accountId: account,
          what: `${product.productUid}: service says entitled, shop says no access`,
        });
      } else if (!truth && shop) {
        wrongAccess++;
        findings.push({
          accountId: account,
          what: `${product.productUid}: shop gives access, service says not entitled`,
        });
      }
    }
    const bought = passesOf.get(account) ?? 0;
    const shown = view.passes ?? { available: 0, bought: 0 };
    const most = bought - subscriber.unitsSpent;
    const least = most - subscriber.unitsSpentUnclear;
    if (shown.bought !== bought || shown.available > most || shown.available < least) {
      miscountedUnits += Math.max(
        Math.abs(shown.bought - bought),
        shown.available > most ? shown.available - most : least - shown.available,
        1,
      );
      findings.push({
        accountId: account,
        what: `passes: service sold ${bought}, spent ${subscriber.unitsSpent} (+${subscriber.unitsSpentUnclear} unclear); shop shows ${shown.available} of ${shown.bought}`,
      });
    }
  }

  return {
    purchases: succeeded.length,
    subscriptionsStarted: records.subscriptions.length,
    renewalsCollected: records.subscriptions.reduce(
      (sum, s) => sum + s.charges.filter((charge) => charge.collected).length,
      0,
    ),
    doubleCharges,
    linesPayingTwice: linesPayingTwice(records.subscriptions, accountOfPayment),
    lostGrants,
    wrongAccess,
    miscountedUnits,
    findings,
  };
}

/** Subscriptions of one account and product started while an earlier one was still live. */
function overlaps(subscriptions: readonly ServiceSubscription[]): number {
  let count = 0;
  const sorted = [...subscriptions].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  sorted.forEach((subscription, index) => {
    const earlierLive = sorted
      .slice(0, index)
      .some(
        (earlier) =>
          earlier.productUid === subscription.productUid &&
          (earlier.endedAt === null || earlier.endedAt > subscription.createdAt),
      );
    if (earlierLive) count++;
  });
  return count;
}

/** Lines (subscriberUid) with live subscriptions of two accounts to one product at the same time. */
function linesPayingTwice(
  subscriptions: readonly ServiceSubscription[],
  accountOf: Map<string, string | undefined>,
): number {
  const byLine = new Map<string, ServiceSubscription[]>();
  for (const s of subscriptions) {
    const key = `${s.subscriberUid}|${s.productUid}`;
    byLine.set(key, [...(byLine.get(key) ?? []), s]);
  }
  let lines = 0;
  for (const list of byLine.values()) {
    const twice = list.some((a) =>
      list.some(
        (b) =>
          accountOf.get(a.paymentUid) !== accountOf.get(b.paymentUid) &&
          a.createdAt < b.createdAt &&
          (a.endedAt === null || a.endedAt > b.createdAt),
      ),
    );
    if (twice) lines++;
  }
  return lines;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** The account page as the subscriber sees it, signed in afresh. */
async function readShopAccount(shopUrl: string, accountId: string): Promise<AccountView> {
  const browser = new Browser(shopUrl);
  const signIn = await browser.post('/sign-in', { accountId, next: '/account' });
  if (signIn.status !== 303) throw new Error(`verdict: sign-in of ${accountId} answered ${signIn.status}`);
  const page = await browser.page('/account');
  if (page.status !== 200) throw new Error(`verdict: ${accountId}'s account page answered ${page.status}`);
  return readAccountPage(page.html);
}
