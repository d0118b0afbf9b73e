import { optionError } from '../errors/option-error.js';
import type { HistoryEntry, HistoryQuery, HistoryStore } from './history-store.js';

/** The most entries a memory store keeps by default: the oldest go first. */
export const DEFAULT_MEMORY_HISTORY_LIMIT = 10_000;

/**
 * History in process memory, bounded: past `limit` entries the oldest are dropped, so a
 * long-running process does not grow without end. Entries are appended in time order, so the
 * array is already sorted oldest first.
 */
export function memoryHistory(limit = DEFAULT_MEMORY_HISTORY_LIMIT): HistoryStore {
  if (!(Number.isSafeInteger(limit) && limit > 0)) {
    throw optionError('memoryStore', 'historyLimit', 'must be a whole number of entries > 0.');
  }
  let entries: HistoryEntry[] = [];
  return {
    async appendHistory(entry) {
      entries.push(entry);
      // Dropped in batches: one splice per tenth of the limit instead of one shift per append.
      if (entries.length > limit + Math.ceil(limit / 10)) entries = entries.slice(entries.length - limit);
    },
    async listHistory({ accountKey, productUid, limit: wanted }: HistoryQuery) {
      const found: HistoryEntry[] = [];
      const oldestKept = Math.max(0, entries.length - limit);
      for (let i = entries.length - 1; i >= oldestKept && found.length < wanted; i--) {
        const entry = entries[i] as HistoryEntry;
        if (
          (accountKey === undefined || entry.accountKey === accountKey) &&
          (productUid === undefined || entry.productUid === productUid)
        ) {
          found.push(entry);
        }
      }
      return found;
    },
    async pruneHistory(before) {
      const cut = before.getTime();
      const kept = entries.filter((entry) => Date.parse(entry.recordedAt) >= cut);
      const removed = entries.length - kept.length;
      entries = kept;
      return removed;
    },
  };
}
