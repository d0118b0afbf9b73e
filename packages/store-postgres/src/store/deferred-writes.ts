import type { HistoryEntry, MetricEntry, PaymentEnding, SubscriptionLifecycle } from '@dcbkit/core/store';
import type { TableNames } from '../schema/table-names.js';
import { appendHistorySql, historyParams } from './history-methods.js';
import { deriveSubscribersSql, subscriberArrays } from './lifecycle-methods.js';
import { factArrays, recordFactsCtes } from './metrics-methods.js';
import { endPendingSql, removePendingSql } from './pending-statements.js';
import { SqlParams } from './sql-params.js';

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

/** The key's target: the entitlement the event was applied to, kept with its key. */
export interface KeyTarget {
  hash: string;
  accountKey: string;
  productUid: string;
}

/**
 * One data-modifying CTE of the last statement, or the facts' own CTEs (`ctes`: recordFactsCtes,
 * whose `fresh` the statement answers). Its SQL holds the placeholders its values were given.
 */
interface Part {
  sql: string;
  ctes?: true;
}

/**
 * Parts as one statement: each part a CTE `wN` (the facts' CTEs as they are), answering the facts'
 * new keys, or `SELECT 1` when there are none. A single part that is not the facts goes alone.
 * The parts' tables differ, so no part needs to see another's rows.
 */
export function oneStatement(parts: readonly Part[]): string {
  const [only] = parts;
  if (parts.length === 1 && only !== undefined && only.ctes !== true) return only.sql;
  const ctes = parts.map((part, n) => (part.ctes ? part.sql : `w${n} AS (${part.sql})`));
  const answer = parts.some((part) => part.ctes) ? 'SELECT key FROM fresh' : 'SELECT 1';
  return `WITH ${ctes.join(',\n')} ${answer}`;
}

/** A part before its numbering: its kind, its values, and its SQL given their placeholders. */
interface PendingPart {
  kind: string;
  values: readonly unknown[];
  sql: ($: readonly string[]) => string;
  ctes?: true;
}

/**
 * The event's last statement: the key's target (when the event was applied to an entitlement),
 * then every deferred write, the derived columns of the subscribers whose lifecycle records the
 * event merged, and the work's facts, as data-modifying CTEs of one statement. Undefined when
 * there is nothing to write. Each part's values are numbered as they are added (SqlParams) and
 * its SQL written with the placeholders they got, so no SQL is ever rewritten. The text of a
 * shape (which parts, how many values each, in which order) is made once and kept: the same text
 * every time, prepared once per connection, and not rebuilt (nor hashed again) per event.
 */
export function deferredStatements(t: TableNames) {
  const texts = new Map<string, string>();
  const textOf = (parts: readonly PendingPart[]): string => {
    const shape = parts.map((part) => `${part.kind}:${part.values.length}`).join(',');
    const known = texts.get(shape);
    if (known !== undefined) return known;
    const numbering = new SqlParams();
    const text = oneStatement(
      parts.map((part) => ({
        sql: part.sql(numbering.addAll(part.values)),
        ...(part.ctes && { ctes: true }),
      })),
    );
    texts.set(shape, text);
    return text;
  };

  return function deferredStatement(
    target: KeyTarget | undefined,
    writes: DeferredWrites,
    facts: readonly MetricEntry[],
    lifecycles: readonly SubscriptionLifecycle[] = [],
  ): Statement | undefined {
    const parts: PendingPart[] = [];
    if (target !== undefined)
      parts.push({
        kind: 'target',
        values: [target.hash, target.accountKey, target.productUid],
        sql: ([hash, accountKey, productUid]) =>
          `UPDATE ${t.events} SET account_key = ${accountKey}, product_uid = ${productUid} WHERE key_hash = decode(${hash}, 'hex')`,
      });
    for (const entry of writes.history)
      parts.push({ kind: 'history', values: historyParams(entry), sql: ($) => appendHistorySql(t, $) });
    for (const { paymentUid, ending } of writes.payments) {
      if (ending === undefined)
        parts.push({ kind: 'forget', values: [paymentUid], sql: ($) => removePendingSql(t, $) });
      else {
        const { status, failureCode, at, subscriberUid } = ending;
        const values = [paymentUid, status, failureCode ?? null, at, subscriberUid ?? null];
        parts.push({ kind: 'end', values, sql: ($) => endPendingSql(t, $) });
      }
    }
    // The columns the lifecycle records the event merged (apply-once.ts) make their subscribers'.
    if (lifecycles.length > 0)
      parts.push({
        kind: 'lifecycles',
        values: subscriberArrays(lifecycles),
        sql: ($) => deriveSubscribersSql(t, $),
      });
    if (facts.length > 0)
      parts.push({ kind: 'facts', values: factArrays(facts), sql: ($) => recordFactsCtes(t, $), ctes: true });
    if (parts.length === 0) return undefined;
    // The values in the order of the parts, as textOf numbered them.
    return { sql: textOf(parts), params: parts.flatMap((part) => part.values) };
  };
}
