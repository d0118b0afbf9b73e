import type { Entitlement } from '../schemas/entitlement.js';
import { isLiveSubscription } from './reconcile-deadline.js';

/** One product a line holds a live subscription of under more than one account: the line pays for it twice or more. */
export interface LinePaysTwice {
  readonly productUid: string;
  /** The live subscriptions, oldest first (see `newerFirst`). */
  readonly subscriptionUids: readonly string[];
  /** The accounts holding them, in the same order. */
  readonly accountKeys: readonly string[];
}

/**
 * Orders two subscriptions of one product newest first: the later period end started later (both
 * bill the same period), and of one period end the greater subscriptionUid (the service's uids
 * grow with time). Every instance orders the same records the same way, so two instances that see
 * the same line at once agree on which subscription is the newer.
 */
export function newerFirst(a: Entitlement, b: Entitlement): number {
  const [endA, endB] = [a.currentPeriodEnd ?? '', b.currentPeriodEnd ?? ''];
  if (endA !== endB) return endA > endB ? -1 : 1;
  const [uidA, uidB] = [a.subscriptionUid ?? '', b.subscriptionUid ?? ''];
  return uidA > uidB ? -1 : uidA < uidB ? 1 : 0;
}

/**
 * The products of a line held as live subscriptions by more than one account (a PRE_CANCELED one
 * counts until it ends: it still gives access, though it will not renew). Pure: the line's
 * entitlements in, the products it pays twice out, in productUid order.
 */
export function linePaysTwice(entitlements: readonly Entitlement[]): LinePaysTwice[] {
  const byProduct = new Map<string, Entitlement[]>();
  for (const entitlement of entitlements) {
    if (!isLiveSubscription(entitlement)) continue;
    const held = byProduct.get(entitlement.productUid) ?? [];
    held.push(entitlement);
    byProduct.set(entitlement.productUid, held);
  }
  const twice: LinePaysTwice[] = [];
  for (const [productUid, held] of byProduct) {
    if (new Set(held.map((one) => one.accountKey)).size < 2) continue;
    const oldestFirst = [...held].sort(newerFirst).reverse();
    twice.push({
      productUid,
      subscriptionUids: oldestFirst.map((one) => one.subscriptionUid ?? ''),
      accountKeys: oldestFirst.map((one) => one.accountKey),
    });
  }
  return twice.sort((a, b) => (a.productUid < b.productUid ? -1 : a.productUid > b.productUid ? 1 : 0));
}

/**
 * The other accounts' subscriptions of this entitlement's product on its line that will renew
 * (live and not PRE_CANCELED), when this one will renew too: what makes the line pay twice at its
 * next renewals. Empty when the line pays once.
 */
export function renewingTwinsOf(entitlement: Entitlement, line: readonly Entitlement[]): Entitlement[] {
  if (!willRenew(entitlement)) return [];
  return line.filter(
    (other) =>
      other.productUid === entitlement.productUid &&
      other.accountKey !== entitlement.accountKey &&
      willRenew(other),
  );
}

/** A live subscription not cancelled at period end: it will be charged again. */
export function willRenew(entitlement: Entitlement): boolean {
  return isLiveSubscription(entitlement) && entitlement.status !== 'PRE_CANCELED';
}

/**
 * The newest subscription of each product the line would renew under several accounts: what
 * `cancel-newer` cancels. In productUid order; empty when the line pays once at its renewals.
 */
export function newerOfRenewingTwins(line: readonly Entitlement[]): Entitlement[] {
  const newer = new Map<string, Entitlement>();
  for (const entitlement of line) {
    const twins = renewingTwinsOf(entitlement, line);
    if (twins.length === 0) continue;
    const newest = [entitlement, ...twins].sort(newerFirst)[0] as Entitlement;
    newer.set(newest.productUid, newest);
  }
  return [...newer.values()].sort((a, b) => (a.productUid < b.productUid ? -1 : 1));
}
