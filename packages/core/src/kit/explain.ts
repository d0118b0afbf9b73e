import { type AccessReason, accessReason } from '../access/access-reason.js';
import { isStillOpen } from '../access/offer-standing.js';
import { entitlementStatusOfSubscription } from '../access/subscription-status.js';
import type { DcbClient } from '../client/create-client.js';
import { isDcbError } from '../errors/dcb-error.js';
import type { Offers } from '../offers/define-offers.js';
import type { Entitlement, EntitlementStatus } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { Subscription } from '../schemas/subscription.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { type HistoryEntry, isHistoryStore } from '../store/history-store.js';
import type { EndedPayment, PendingPayment, ReconcileStore } from '../store/reconcile-store.js';
import { endedPaymentsOf } from './ended-payments.js';

export interface ExplainOptions {
  /** Only this product (explained even when the account has no entitlement to it). */
  productUid?: string;
  /**
   * Also read the service's own view of each subscription (`GET /v1/subscriptions/{uid}`) and
   * flag where it and the store disagree. Default false: explain reads nothing from the service.
   */
  read?: boolean;
  /** History entries per product, newest first. Default 20. */
  historyLimit?: number;
}

/** What the service says now, beside what the store says. */
export interface ServiceView {
  /** The subscription as read. */
  readonly subscription?: Subscription;
  /** The entitlement status that subscription maps to. */
  readonly status?: EntitlementStatus;
  /** The read failed: its code (the store's answer stands alone). */
  readonly error?: string;
  /** True when the service's status and the store's differ: reconciliation repairs it (`kit.reconcile`). */
  readonly drift: boolean;
}

export interface ProductExplanation {
  readonly productUid: string;
  /** The offer the entitlement was last set by (or the product's first listed offer). */
  readonly offer: OfferDefinition | undefined;
  readonly entitlement: Entitlement | undefined;
  /** Access now, and why: the rule of hasAccess said as a code. */
  readonly reason: AccessReason;
  /** What made the entitlement what it is: the kit's decisions, newest first (empty when the store keeps no history). */
  readonly history: readonly HistoryEntry[];
  /** With `read: true`, for a subscription: the service's view. */
  readonly service?: ServiceView;
}

/** `kit.explain(accountKey)`: access now and why, what is pending, and on request the service's view. */
export interface AccessExplanation {
  readonly accountKey: string;
  /** When it was explained (the kit's clock). */
  readonly at: string;
  readonly products: readonly ProductExplanation[];
  /** Checkouts of the account started and not finished, still open. */
  readonly pendingPayments: readonly PendingPayment[];
  /**
   * Checkouts of the account that ended unpaid, newest first, each with why (`ended`: FAILED,
   * EXPIRED or CANCELED, and the service's `failureCode` when a read gave one).
   */
  readonly endedPayments: readonly EndedPayment[];
  /** False when the store keeps no history: `history` is then always empty. */
  readonly historyKept: boolean;
}

export interface ExplainContext {
  store: EntitlementStore & Partial<ReconcileStore>;
  client: Pick<DcbClient, 'subscriptions'>;
  offers: Offers;
  now: () => Date;
}

const DEFAULT_HISTORY_LIMIT = 20;

/**
 * Answers "why has this customer (no) access?" from the store alone, or with `read: true` beside
 * the service's own view: each product's entitlement, the reason access is on or off, the history
 * that made it, and the account's open checkouts.
 */
export async function explainAccess(
  context: ExplainContext,
  accountKey: string,
  options: ExplainOptions = {},
): Promise<AccessExplanation> {
  const { store, offers } = context;
  const at = context.now();
  const limit = options.historyLimit ?? DEFAULT_HISTORY_LIMIT;
  const historyKept = isHistoryStore(store);
  const entitlements = options.productUid
    ? [await store.get(accountKey, options.productUid)].filter((e): e is Entitlement => e !== undefined)
    : await store.listByAccount(accountKey);
  const history = historyKept
    ? await store.listHistory({
        accountKey,
        productUid: options.productUid,
        limit: limit * Math.max(4, entitlements.length + 1),
      })
    : [];
  // Products the account holds, or only ever heard of (an event applied to nothing, say).
  const productUids = [
    ...new Set([
      ...(options.productUid ? [options.productUid] : []),
      ...entitlements.map((entitlement) => entitlement.productUid),
      ...history.map((entry) => entry.productUid),
    ]),
  ].sort();
  const products = await Promise.all(
    productUids.map(async (productUid): Promise<ProductExplanation> => {
      const entitlement = entitlements.find((held) => held.productUid === productUid);
      const explained = {
        productUid,
        offer: entitlement ? offers.get(entitlement.offerUid) : offers.forProduct(productUid)[0],
        entitlement,
        reason: accessReason(entitlement, at),
        history: history.filter((entry) => entry.productUid === productUid).slice(0, limit),
      };
      if (!options.read || !entitlement?.subscriptionUid) return explained;
      return { ...explained, service: await serviceView(context, entitlement, at) };
    }),
  );
  const ofProduct = (payment: PendingPayment) =>
    options.productUid === undefined || payment.productUid === options.productUid;
  const pending = ((await store.listPendingPaymentsOfAccount?.(accountKey)) ?? []).filter(ofProduct);
  return {
    accountKey,
    at: at.toISOString(),
    products,
    pendingPayments: pending.filter((payment) => isStillOpen(payment, at)),
    endedPayments: endedPaymentsOf(pending, at),
    historyKept,
  };
}

/** The service's view of the entitlement's subscription, beside the store's (a failed read says its code). */
export async function serviceView(
  context: Pick<ExplainContext, 'client'>,
  entitlement: Entitlement,
  at: Date,
): Promise<ServiceView> {
  try {
    const subscription = await context.client.subscriptions.retrieve(entitlement.subscriptionUid ?? '');
    const status = entitlementStatusOfSubscription(subscription, at.toISOString());
    return { subscription, status, drift: status !== entitlement.status };
  } catch (error) {
    return { error: isDcbError(error) ? error.code : 'read_failed', drift: false };
  }
}
