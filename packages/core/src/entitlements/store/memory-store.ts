import { optionError } from '../../errors/option-error.js';
import type { Entitlement } from '../entitlement.js';
import type { EntitlementChange, EntitlementStore } from './entitlement-store.js';

/** Where one entitlement lives; the indexes point at slots, so a write replaces one reference. */
interface Slot {
  entitlement: Entitlement;
}

function byProductUid(a: Entitlement, b: Entitlement): number {
  return a.productUid < b.productUid ? -1 : a.productUid > b.productUid ? 1 : 0;
}

/**
 * An in-process EntitlementStore, for development, tests and single-instance apps: entitlements
 * are lost on restart. Updates are atomic because each runs without yielding to the event loop.
 * Records are handed out without copying: the Entitlement type is readonly throughout, and every
 * change makes a new record, so one already returned never changes.
 *
 * @example
 * const store = memoryStore();
 * const handler = createWebhookHandler({ secrets, store, ledger: memoryLedger(), offers });
 */
export function memoryStore(): EntitlementStore {
  // An account holds a few products: a small array per account is cheaper than a Map.
  const accounts = new Map<string, Slot[]>();
  const bySubscription = new Map<string, Slot>();
  const byPayment = new Map<string, Slot>();

  function slotOf(accountKey: string, productUid: string): Slot | undefined {
    const products = accounts.get(accountKey);
    if (products === undefined) return undefined;
    for (const slot of products) if (slot.entitlement.productUid === productUid) return slot;
    return undefined;
  }

  function newSlot(entitlement: Entitlement): Slot {
    const slot = { entitlement };
    const products = accounts.get(entitlement.accountKey);
    if (products === undefined) accounts.set(entitlement.accountKey, [slot]);
    else products.push(slot);
    return slot;
  }

  function index(slot: Slot, previous: Entitlement | undefined): void {
    const next = slot.entitlement;
    if (next.subscriptionUid !== (previous?.subscriptionUid ?? null)) {
      if (previous?.subscriptionUid) bySubscription.delete(previous.subscriptionUid);
      if (next.subscriptionUid) bySubscription.set(next.subscriptionUid, slot);
    }
    // Rules keep an unchanged id list as the same array, so most writes skip this loop. Otherwise
    // they add ids to a sorted list: one walk finds the new ones (an id out of step is only set again).
    if (next.paymentUids !== previous?.paymentUids) {
      const known = previous?.paymentUids ?? [];
      let k = 0;
      for (const paymentUid of next.paymentUids) {
        if (known[k] === paymentUid) k++;
        else byPayment.set(paymentUid, slot);
      }
    }
  }

  return {
    async get(accountKey, productUid) {
      return slotOf(accountKey, productUid)?.entitlement;
    },
    async update(accountKey: string, productUid: string, change: EntitlementChange) {
      const slot = slotOf(accountKey, productUid);
      const current = slot?.entitlement;
      const next = change(current);
      if (next === undefined || next === current) return current;
      if (next.accountKey !== accountKey || next.productUid !== productUid) {
        throw optionError(
          `memoryStore.update(${accountKey}, ${productUid})`,
          'change',
          `returned the entitlement of ${next.accountKey}, ${next.productUid}.`,
        );
      }
      if (slot === undefined) index(newSlot(next), undefined);
      else {
        slot.entitlement = next;
        index(slot, current);
      }
      return next;
    },
    async listByAccount(accountKey) {
      const products = accounts.get(accountKey);
      if (products === undefined) return [];
      return products.map((slot) => slot.entitlement).sort(byProductUid);
    },
    async findBySubscriptionUid(subscriptionUid) {
      return bySubscription.get(subscriptionUid)?.entitlement;
    },
    async findByPaymentUid(paymentUid) {
      return byPayment.get(paymentUid)?.entitlement;
    },
  };
}
