import type { Offers, WebhookHealth } from '@dcbkit/core';
import { type EntitlementStore, isHistoryStore } from '@dcbkit/core/store';
import { type HistoryRow, historyRows, type Words } from './history-rows.js';

/** `kit.webhookHealth()` as the operations view shows it. */
export interface HealthView {
  since: string;
  accepted: number;
  duplicate: number;
  deferred: number;
  refused: Array<{ code: string; count: number }>;
  refusedTotal: number;
  failed: Array<{ code: string; count: number }>;
  failedTotal: number;
  lastAcceptedAt: string | null;
  lastRefusedAt: string | null;
  lastFailedAt: string | null;
  /** Deliveries refused for their signature: nearly always this shop's DCB_WEBHOOK_SECRET. */
  signatureMismatches: number;
}

export function healthView(health: WebhookHealth): HealthView {
  const byCode = (counts: Readonly<Record<string, number>>) =>
    Object.entries(counts)
      .map(([code, count]) => ({ code, count }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
  const total = (counts: Readonly<Record<string, number>>) =>
    Object.values(counts).reduce((sum, count) => sum + count, 0);
  return {
    since: health.since,
    accepted: health.accepted,
    duplicate: health.duplicate,
    deferred: health.deferred,
    refused: byCode(health.refused),
    refusedTotal: total(health.refused),
    failed: byCode(health.failed),
    failedTotal: total(health.failed),
    lastAcceptedAt: health.lastAcceptedAt,
    lastRefusedAt: health.lastRefusedAt,
    lastFailedAt: health.lastFailedAt,
    signatureMismatches: health.refused.signature_mismatch ?? 0,
  };
}

/** How many history entries the deliveries page reads (the webhooks among them are shown). */
export const RECENT_ENTRIES = 50;

/**
 * The webhook deliveries among the latest history entries, everyone's, newest first; undefined when
 * the store keeps no history. A refused delivery is never there: it names no account anyone can trust.
 */
export async function recentDeliveries(
  store: EntitlementStore,
  words: Words,
  offers: Offers,
): Promise<HistoryRow[] | undefined> {
  if (!isHistoryStore(store)) return undefined;
  const entries = await store.listHistory({ limit: RECENT_ENTRIES });
  return historyRows(
    entries.filter((entry) => entry.source === 'webhook'),
    words,
    offers,
  );
}
