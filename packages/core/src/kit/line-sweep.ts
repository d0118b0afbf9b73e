import { newerOfRenewingTwins } from '../access/line-twins.js';
import { applySubscriptionRead } from '../apply/apply-subscription-read.js';
import type { RecordHistory } from '../apply/history-entry.js';
import type { RecordFacts } from '../apply/record-facts.js';
import type { DcbClient } from '../client/create-client.js';
import type { DcbLogger } from '../observability/logger.js';
import type { Offers } from '../offers/define-offers.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { isHistoryStore } from '../store/history-store.js';
import { isLineStore } from '../store/line-store.js';

/** How far back the sweep looks for lines that paid twice: the latest history entries of everyone. */
const RECENT_ENTRIES = 1_000;

export interface LineSweepContext {
  store: EntitlementStore;
  client: Pick<DcbClient, 'subscriptions'>;
  offers: Offers;
  now: () => Date;
  logger: DcbLogger;
  recordHistory: RecordHistory | undefined;
  recordFacts: RecordFacts | undefined;
}

/**
 * `linePolicy: 'cancel-newer'`, after a reconcile run: the lines a recent `line_pays_twice` entry
 * names that would still renew twice (the webhook's cancel failed, and the service stopped
 * retrying the event) get their newer subscription cancelled at period end now. Resolves to how
 * many were cancelled; a cancel that fails is logged and left to the next run.
 */
export async function cancelNewerOnLinesPayingTwice(context: LineSweepContext): Promise<number> {
  const { store, client, logger } = context;
  if (!isLineStore(store) || !isHistoryStore(store)) return 0;
  const recent = await store.listHistory({ limit: RECENT_ENTRIES });
  const lines = new Set<string>();
  for (const entry of recent) {
    if (entry.decision === 'line_pays_twice' && entry.subscriberUid) lines.add(entry.subscriberUid);
  }
  let canceled = 0;
  for (const line of lines) {
    for (const newer of newerOfRenewingTwins(await store.listBySubscriberUid(line))) {
      const subscriptionUid = newer.subscriptionUid ?? '';
      const observedAt = context.now();
      try {
        const subscription = await client.subscriptions.cancel(subscriptionUid, { when: 'PERIOD_END' });
        await applySubscriptionRead(subscription, {
          store,
          offers: context.offers,
          observedAt,
          now: context.now,
          recordHistory: context.recordHistory,
          recordFacts: context.recordFacts,
          historySource: 'reconcile',
        });
        canceled++;
        logger.warn?.(
          { subscriberUid: line, subscriptionUid, accountKey: newer.accountKey },
          `dcbkit: line ${line} would renew ${newer.productUid} twice: cancelled ${subscriptionUid} at period end (linePolicy 'cancel-newer', by reconciliation).`,
        );
      } catch (error) {
        logger.warn?.(
          { err: error, subscriberUid: line, subscriptionUid },
          `dcbkit: cancelling ${subscriptionUid} of line ${line} at period end failed; the next reconcile run tries again.`,
        );
      }
    }
  }
  return canceled;
}
