import { type EntitlementFacts, type KnownFacts, NO_KNOWN_FACTS } from '../access/facts.js';
import { optionError } from '../errors/option-error.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { EntitlementChange, EntitlementStore, EntitlementUpdate } from './entitlement-store.js';
import { byAccountThenProduct, type LineStore } from './line-store.js';

/** Where one entitlement lives; the indexes point at slots, so a write replaces one reference. */
interface Slot {
  entitlement: Entitlement;
  /** CONSUMABLE: the orders whose unit is counted (created with the first). */
  unitOrderIds: Set<string> | undefined;
}

interface Indexes {
  // An account holds a few products: a small array per account is cheaper than a Map.
  readonly accounts: Map<string, Slot[]>;
  readonly bySubscription: Map<string, Slot>;
  readonly byPayment: Map<string, Slot>;
  /** The slots of each line (subscriberUid): a line holds a few entitlements. */
  readonly byLine: Map<string, Set<Slot>>;
}

/** The memory store's entitlements and their indexes, and every entitlement held, for reconciliation. */
export interface MemoryEntitlements {
  readonly store: EntitlementStore & LineStore;
  /** Every entitlement held, in no order. */
  all(): Iterable<Entitlement>;
}

/**
 * The entitlements of memoryStore: updates are atomic because each runs without yielding to the
 * event loop. Records are handed out without copying: the Entitlement type is readonly
 * throughout, and every change makes a new record, so one already returned never changes.
 */
export function memoryEntitlements(): MemoryEntitlements {
  const indexes: Indexes = {
    accounts: new Map(),
    bySubscription: new Map(),
    byPayment: new Map(),
    byLine: new Map(),
  };
  const { accounts, bySubscription, byPayment, byLine } = indexes;
  const store: EntitlementStore & LineStore = {
    async get(accountKey, productUid) {
      return slotOf(indexes, accountKey, productUid)?.entitlement;
    },
    async update(
      accountKey: string,
      productUid: string,
      change: EntitlementChange,
      facts?: EntitlementFacts,
    ): Promise<EntitlementUpdate> {
      const slot = slotOf(indexes, accountKey, productUid);
      const current = slot?.entitlement;
      // Looked up once: it answers both `known` and whether the write records the payment.
      const paymentOwner = facts?.paymentUid === undefined ? undefined : byPayment.get(facts.paymentUid);
      const next = change(current, knownFacts(slot, facts, paymentOwner));
      if (next === undefined) return { previous: current, next: current, wrote: false };
      if (next === current) {
        const wrote = slot !== undefined && record(indexes, slot, facts, paymentOwner);
        return { previous: current, next: current, wrote };
      }
      if (next.accountKey !== accountKey || next.productUid !== productUid) {
        throw optionError(
          `memoryStore.update(${accountKey}, ${productUid})`,
          'change',
          `returned the entitlement of ${next.accountKey}, ${next.productUid}.`,
        );
      }
      const written = slot ?? newSlot(indexes, next);
      written.entitlement = next;
      indexSubscription(indexes, written, current);
      indexLine(indexes, written, current);
      record(indexes, written, facts, paymentOwner);
      return { previous: current, next, wrote: true };
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
    async listBySubscriberUid(subscriberUid) {
      const slots = byLine.get(subscriberUid);
      if (slots === undefined) return [];
      return [...slots].map((slot) => slot.entitlement).sort(byAccountThenProduct);
    },
  };
  function* all(): Iterable<Entitlement> {
    for (const products of accounts.values()) for (const { entitlement } of products) yield entitlement;
  }
  return { store, all };
}

function slotOf({ accounts }: Indexes, accountKey: string, productUid: string): Slot | undefined {
  const products = accounts.get(accountKey);
  if (products === undefined) return undefined;
  for (const slot of products) if (slot.entitlement.productUid === productUid) return slot;
  return undefined;
}

function newSlot({ accounts }: Indexes, entitlement: Entitlement): Slot {
  const slot: Slot = { entitlement, unitOrderIds: undefined };
  const products = accounts.get(entitlement.accountKey);
  if (products === undefined) accounts.set(entitlement.accountKey, [slot]);
  else products.push(slot);
  return slot;
}

function knownFacts(
  slot: Slot | undefined,
  facts: EntitlementFacts | undefined,
  paymentOwner: Slot | undefined,
): KnownFacts {
  if (slot === undefined || facts === undefined) return NO_KNOWN_FACTS;
  const paymentUid = paymentOwner === slot;
  const unitOrderId = facts.unitOrderId !== undefined && slot.unitOrderIds?.has(facts.unitOrderId) === true;
  return paymentUid || unitOrderId ? { paymentUid, unitOrderId } : NO_KNOWN_FACTS;
}

/**
 * Records the facts; `paymentOwner` is whom the payment was recorded for before (it stays theirs).
 * True when one was new.
 */
function record(
  { byPayment }: Indexes,
  slot: Slot,
  facts: EntitlementFacts | undefined,
  paymentOwner: Slot | undefined,
): boolean {
  if (facts === undefined) return false;
  const { paymentUid, unitOrderId } = facts;
  let added = false;
  if (paymentUid !== undefined && paymentOwner === undefined) {
    byPayment.set(paymentUid, slot);
    added = true;
  }
  if (unitOrderId !== undefined) {
    if (slot.unitOrderIds === undefined) slot.unitOrderIds = new Set([unitOrderId]);
    else if (slot.unitOrderIds.has(unitOrderId)) return added;
    else slot.unitOrderIds.add(unitOrderId);
    added = true;
  }
  return added;
}

function indexSubscription({ bySubscription }: Indexes, slot: Slot, previous: Entitlement | undefined): void {
  const next = slot.entitlement;
  if (next.subscriptionUid !== (previous?.subscriptionUid ?? null)) {
    if (previous?.subscriptionUid) bySubscription.delete(previous.subscriptionUid);
    if (next.subscriptionUid) bySubscription.set(next.subscriptionUid, slot);
  }
}

function indexLine({ byLine }: Indexes, slot: Slot, previous: Entitlement | undefined): void {
  const line = slot.entitlement.subscriberUid;
  const before = previous?.subscriberUid ?? null;
  if (line === before) return;
  if (before !== null) byLine.get(before)?.delete(slot);
  if (line === null) return;
  const slots = byLine.get(line);
  if (slots === undefined) byLine.set(line, new Set([slot]));
  else slots.add(slot);
}

function byProductUid(a: Entitlement, b: Entitlement): number {
  return a.productUid < b.productUid ? -1 : a.productUid > b.productUid ? 1 : 0;
}
