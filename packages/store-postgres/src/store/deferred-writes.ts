import type { HistoryEntry, MetricEntry, PaymentEnding, SubscriptionLifecycle } from '@dcbkit/core/store';
import type { TableNames } from '../schema/table-names.js';
import { historyParams } from './history-methods.js';
import { subscriberArrays } from './lifecycle-methods.js';
import { factArrays, recordFactsCtes } from './metrics-methods.js';
import type { StoreStatements } from './store-statements.js';

/**
 * The writes of an event that nothing in its transaction reads back: its history entries and its
 * pending payment's ending. Held until the event's work is done, then sent with the key's target
 * and the work's business facts as one statement (deferredStatements), so that they cost one
 * round trip, not one each.
 */
export interface DeferredWrites {
  history: HistoryEntry[];
  /** A pending payment ended (`ending`), or forgotten (no ending). */
  payments: { paymentUid: string; ending: PaymentEnding | undefined }[];
}

export function noDeferredWrites(): DeferredWrites {
  return { history: [], payments: [] };
}

/** The statement to send: its SQL and its parameters. */
interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The parts the last statement is made of: each its SQL, sent as one CTE, but the facts, which are
 * CTEs of their own (recordFactsCtes) and whose new keys the statement answers.
 */
type PartKind = 'target' | 'history' | 'end' | 'forget' | 'lifecycles' | 'facts';

/**
 * The event's last statement: the key's target (when the event was applied to an entitlement),
 * then every deferred write, the derived columns of the subscribers whose lifecycle records the
 * event merged, and the work's facts, as data-modifying CTEs of one statement. Their
 * tables differ, so no part needs to see another's rows. Undefined when there is nothing to write. The SQL of each
 * shape (which parts, in which order) is made once and kept: the same text every time, so that
 * it is prepared once per connection and never renumbered per event.
 */
export function deferredStatements(t: TableNames, sql: StoreStatements) {
  const parts: Record<PartKind, string> = {
    target: `UPDATE ${t.events} SET account_key = $2, product_uid = $3 WHERE key_hash = decode($1, 'hex')`,
    history: sql.history.append,
    end: sql.endPending,
    forget: sql.removePending,
    lifecycles: sql.lifecycles.derive,
    facts: recordFactsCtes(t),
  };
  const shapes = new Map<string, string>();
  const textOf = (kinds: PartKind[]): string => {
    const shape = kinds.join(',');
    const known = shapes.get(shape);
    if (known !== undefined) return known;
    let offset = 0;
    const ctes = kinds.map((kind, n) => {
      const part = parts[kind];
      const renumbered = part.replace(/\$(\d+)/g, (_, i: string) => `$${Number(i) + offset}`);
      offset += Math.max(...[...part.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
      return kind === 'facts' ? renumbered : `w${n} AS (${renumbered})`;
    });
    const answer = kinds.includes('facts') ? 'SELECT key FROM fresh' : 'SELECT 1';
    const text =
      kinds.length === 1 && kinds[0] !== 'facts'
        ? parts[kinds[0] as PartKind]
        : `WITH ${ctes.join(',\n')} ${answer}`;
    shapes.set(shape, text);
    return text;
  };

  return function deferredStatement(
    target: { hash: string; accountKey: string; productUid: string } | undefined,
    writes: DeferredWrites,
    facts: readonly MetricEntry[],
    lifecycles: readonly SubscriptionLifecycle[] = [],
  ): Statement | undefined {
    const kinds: PartKind[] = [];
    const params: unknown[] = [];
    if (target !== undefined) {
      kinds.push('target');
      params.push(target.hash, target.accountKey, target.productUid);
    }
    for (const entry of writes.history) {
      kinds.push('history');
      params.push(...historyParams(entry));
    }
    for (const { paymentUid, ending } of writes.payments) {
      if (ending === undefined) {
        kinds.push('forget');
        params.push(paymentUid);
      } else {
        kinds.push('end');
        params.push(
          paymentUid,
          ending.status,
          ending.failureCode ?? null,
          ending.at,
          ending.subscriberUid ?? null,
        );
      }
    }
    // The columns the lifecycle records the event merged (apply-once.ts) make their subscribers'.
    if (lifecycles.length > 0) {
      kinds.push('lifecycles');
      params.push(...subscriberArrays(lifecycles));
    }
    if (facts.length > 0) {
      kinds.push('facts');
      params.push(...factArrays(facts));
    }
    return kinds.length === 0 ? undefined : { sql: textOf(kinds), params };
  };
}
