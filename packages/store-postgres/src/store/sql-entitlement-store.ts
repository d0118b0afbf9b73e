import type { Entitlement } from '@dcbkit/core';
import {
  type EntitlementChange,
  type EntitlementFacts,
  type EntitlementStore,
  type EntitlementUpdate,
  type HistoryStore,
  isLiveSubscription,
  type LifecycleStore,
  type LineStore,
  type MetricsStore,
  type ReconcileStore,
  reconcileDeadline,
} from '@dcbkit/core/store';
import type { SqlExecutor, SqlQueryable } from '../executor/sql-executor.js';
import type { TableNames } from '../schema/table-names.js';
import type { DeferredWrites } from './deferred-writes.js';
import {
  factParams,
  type HeldFacts,
  hasFacts,
  heldFacts,
  type KnownRow,
  NOTHING_HELD,
} from './held-facts.js';
import { historyMethods } from './history-methods.js';
import { lifecycleMethods } from './lifecycle-methods.js';
import { metricsMethods } from './metrics-methods.js';
import { reconcileMethods } from './reconcile-methods.js';
import { type StoreStatements, storeStatements } from './store-statements.js';

/**
 * Optimistic attempts before an update takes the row lock. One conflict is common when several
 * deliveries touch one entitlement at once; more mean a hot row, where waiting in line is cheaper.
 */
const OPTIMISTIC_ATTEMPTS = 2;
/** How often the locked path re-reads after losing the race to create a missing entitlement. Once is the norm. */
const MAX_CREATE_RACES = 5;

interface DataRow {
  data: Entitlement;
}

interface VersionedRow extends KnownRow {
  /** null when the entitlement does not exist yet. */
  data: Entitlement | null;
  version: string | null;
}

type Decision =
  | { write: false; result: EntitlementUpdate }
  | { write: true; result: EntitlementUpdate; params: unknown[] };

/** Runs the change and says what to write: the parameters shared by every write statement. */
function decide(
  accountKey: string,
  productUid: string,
  current: Entitlement | undefined,
  held: HeldFacts,
  change: EntitlementChange,
): Decision {
  const next = change(current, held.known);
  const unchanged = { previous: current, next: current, wrote: false };
  if (next === undefined) return { write: false, result: unchanged };
  // The record unchanged still needs a write when there is a fact to record: facts go with one.
  const [paymentUid, unitOrderId] = held.toRecord;
  if (next === current && paymentUid === null && unitOrderId === null)
    return { write: false, result: unchanged };
  if (next.accountKey !== accountKey || next.productUid !== productUid) {
    throw new TypeError(
      `postgres store update(${accountKey}, ${productUid}): the change returned the entitlement of ${next.accountKey}, ${next.productUid}.`,
    );
  }
  return {
    write: true,
    result: { previous: current, next, wrote: true },
    params: [
      accountKey,
      productUid,
      next.subscriptionUid,
      JSON.stringify(next),
      isLiveSubscription(next),
      reconcileDeadline(next)?.at ?? null,
      next.lastEventAt,
      paymentUid,
      unitOrderId,
    ],
  };
}

/**
 * One optimistic read-decide-write, no transaction: read the row, its version and the facts held
 * in one statement, decide, then write the record and the new facts only if the row is still at
 * that version (or still missing). Two round trips and one commit; resolves to not done when
 * another write got there first.
 */
async function tryOptimistic(
  executor: SqlQueryable,
  sql: StoreStatements,
  accountKey: string,
  productUid: string,
  change: EntitlementChange,
  facts: EntitlementFacts,
): Promise<{ done: true; result: EntitlementUpdate } | { done: false }> {
  const { rows } = await executor.query<VersionedRow>(sql.getVersioned, [
    accountKey,
    productUid,
    ...factParams(facts),
  ]);
  const row = rows[0];
  const current = row?.data ?? undefined;
  const decision = decide(accountKey, productUid, current, heldFacts(facts, row), change);
  if (!decision.write) return { done: true, result: decision.result };
  const written =
    current === undefined
      ? await executor.query(sql.insert, decision.params)
      : await executor.query(sql.updateIfUnchanged, [...decision.params, row?.version]);
  return written.rows.length === 1 ? { done: true, result: decision.result } : { done: false };
}

/** Which facts the store holds, read by a statement of its own (see the statements' `known`). */
async function readHeldFacts(
  tx: SqlQueryable,
  sql: StoreStatements,
  accountKey: string,
  productUid: string,
  facts: EntitlementFacts,
): Promise<HeldFacts> {
  if (!hasFacts(facts)) return NOTHING_HELD;
  const { rows } = await tx.query<KnownRow>(sql.known, [accountKey, productUid, ...factParams(facts)]);
  return heldFacts(facts, rows[0]);
}

/**
 * Read-decide-write of one entitlement inside a transaction the caller opened: the row is locked
 * (SELECT … FOR UPDATE) before the facts are read and `change` sees it, so concurrent updates of
 * it, from any instance, run one after the other. A missing row cannot be locked: the insert then
 * races, and the loser reads the winner's row and decides again.
 */
export async function updateInTransaction(
  tx: SqlQueryable,
  sql: StoreStatements,
  accountKey: string,
  productUid: string,
  change: EntitlementChange,
  facts: EntitlementFacts = {},
): Promise<EntitlementUpdate> {
  for (let race = 0; race < MAX_CREATE_RACES; race++) {
    const { rows } = await tx.query<DataRow>(sql.lock, [accountKey, productUid]);
    const current = rows[0]?.data;
    const held = await readHeldFacts(tx, sql, accountKey, productUid, facts);
    const decision = decide(accountKey, productUid, current, held, change);
    if (!decision.write) return decision.result;
    if (current !== undefined) {
      await tx.query(sql.updateLocked, decision.params);
      return decision.result;
    }
    const inserted = await tx.query(sql.insert, decision.params);
    if (inserted.rows.length === 1) return decision.result;
    // Another transaction created it first (the insert waited for it to commit): lock that row, decide again.
  }
  throw new Error(
    `postgres store update(${accountKey}, ${productUid}): lost the race to create it ${MAX_CREATE_RACES} times.`,
  );
}

/** Everything the SQL store keeps: core's contracts it implements. */
export type SqlEntitlementStore = EntitlementStore &
  ReconcileStore &
  Required<Pick<ReconcileStore, 'listDuePage'>> &
  HistoryStore &
  MetricsStore &
  LifecycleStore &
  LineStore;

/**
 * The store bound to one transaction (`tx`): every statement, the locked update's included, runs
 * in it. The writes nothing reads back in the transaction (history, a pending payment's end) are
 * held in `deferred`, for applyOnce to send as one statement. What applyOnce hands the handler.
 */
export function storeInTransaction(
  tx: SqlQueryable,
  names: TableNames,
  sql: StoreStatements,
  deferred: DeferredWrites,
): SqlEntitlementStore {
  const inTransaction: SqlExecutor = {
    query: (text, params) => tx.query(text, params),
    transaction: (work) => work(tx),
  };
  return {
    ...sqlEntitlementStore(inTransaction, names, sql),
    async appendHistory(entry) {
      deferred.history.push(entry);
    },
    async endPendingPayment(paymentUid, ending) {
      deferred.payments.push({ paymentUid, ending });
    },
    async removePendingPayment(paymentUid) {
      deferred.payments.push({ paymentUid, ending: undefined });
    },
  };
}

/**
 * An EntitlementStore on PostgreSQL tables (see migrations.ts). `update` is a compare-and-set on
 * the row's version, which costs two statements and one commit, and falls back to a row lock in a
 * transaction when the entitlement is contended, so that every update ends. `change` may therefore
 * run more than once, as the interface allows. Records are read back as fresh objects, so one
 * already returned never changes.
 */
export function sqlEntitlementStore(
  executor: SqlExecutor,
  names: TableNames,
  sql: StoreStatements = storeStatements(names),
): SqlEntitlementStore {
  const first = async (text: string, params: unknown[]) =>
    (await executor.query<DataRow>(text, params)).rows[0]?.data;
  return {
    get: (accountKey, productUid) => first(sql.get, [accountKey, productUid]),
    async update(accountKey, productUid, change, facts = {}) {
      for (let attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
        const outcome = await tryOptimistic(executor, sql, accountKey, productUid, change, facts);
        if (outcome.done) return outcome.result;
      }
      return executor.transaction((tx) =>
        updateInTransaction(tx, sql, accountKey, productUid, change, facts),
      );
    },
    async listByAccount(accountKey) {
      const { rows } = await executor.query<DataRow>(sql.list, [accountKey]);
      return rows.map((row) => row.data);
    },
    async listBySubscriberUid(subscriberUid) {
      const { rows } = await executor.query<DataRow>(sql.byLine, [subscriberUid]);
      return rows.map((row) => row.data);
    },
    findBySubscriptionUid: (subscriptionUid) => first(sql.bySubscription, [subscriptionUid]),
    findByPaymentUid: (paymentUid) => first(sql.byPayment, [paymentUid]),
    ...reconcileMethods(executor, sql),
    ...historyMethods(executor, sql.history),
    ...metricsMethods(executor, sql.metrics),
    ...lifecycleMethods(executor, sql.lifecycles),
  };
}
