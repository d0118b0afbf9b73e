import { type HistoryStore, isHistoryStore } from '../store/history-store.js';

/**
 * Whether a part records history, decided by one rule for the kit, the webhook handler, the
 * routes and reconciliation: the store keeps one and `history` is not `false`. Gives the store
 * as a HistoryStore then, else undefined.
 */
export function keptHistoryOf<S extends object>(
  store: S,
  history: boolean | undefined,
): (S & HistoryStore) | undefined {
  return history !== false && isHistoryStore(store) ? store : undefined;
}
