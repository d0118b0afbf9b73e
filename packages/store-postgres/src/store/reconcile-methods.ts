import type { Entitlement } from '@dcbkit/core';
import type { PaymentEnding, PendingPayment, ReconcileStore, ShownOffer } from '@dcbkit/core/store';
import type { SqlExecutor } from '../executor/sql-executor.js';
import { listDuePage } from './due-page.js';
import { tryLeaseLock } from './lease-lock.js';
import type { StoreStatements } from './store-statements.js';

interface PendingRow {
  payment_uid: string;
  account_key: string;
  product_uid: string;
  offer_uid: string;
  recorded_at: Date | string;
  checkout_url: string | null;
  expires_at: Date | string | null;
  ended_status: PaymentEnding['status'] | null;
  ended_failure_code: string | null;
  ended_at: Date | string | null;
  ended_subscriber_uid: string | null;
  shown: ShownOffer | null;
}

function pendingPaymentOf(row: PendingRow): PendingPayment {
  return {
    paymentUid: row.payment_uid,
    accountKey: row.account_key,
    productUid: row.product_uid,
    offerUid: row.offer_uid,
    recordedAt: new Date(row.recorded_at).toISOString(),
    ...(row.checkout_url === null ? {} : { checkoutUrl: row.checkout_url }),
    ...(row.expires_at === null ? {} : { expiresAt: new Date(row.expires_at).toISOString() }),
    ...(row.ended_status === null ? {} : { ended: endingOf(row, row.ended_status) }),
    ...(row.shown === null ? {} : { shown: row.shown }),
  };
}

function endingOf(row: PendingRow, status: PaymentEnding['status']): PaymentEnding {
  return {
    status,
    ...(row.ended_failure_code === null ? {} : { failureCode: row.ended_failure_code }),
    at: new Date(row.ended_at ?? row.recorded_at).toISOString(),
    ...(row.ended_subscriber_uid === null ? {} : { subscriberUid: row.ended_subscriber_uid }),
  };
}

/** Reconciliation's bookkeeping beside the entitlements (core's ReconcileStore, docs/reconcile.md). */
export function reconcileMethods(
  executor: SqlExecutor,
  sql: StoreStatements,
): ReconcileStore & Required<Pick<ReconcileStore, 'listDuePage'>> {
  return {
    listDuePage: (query) => listDuePage(executor, sql, query),
    async listDueEntitlements({ now, staleBefore, after, limit }) {
      const { rows } = await executor.query<{ data: Entitlement }>(sql.due, [
        now.toISOString(),
        staleBefore?.toISOString() ?? null,
        after?.accountKey ?? '',
        after?.productUid ?? '',
        limit,
      ]);
      return rows.map((row) => row.data);
    },
    async markReconciled({ accountKey, productUid }, at) {
      await executor.query(sql.markReconciled, [accountKey, productUid, at.toISOString()]);
    },
    async recordPendingPayment(payment) {
      await executor.query(sql.recordPending, [
        payment.paymentUid,
        payment.accountKey,
        payment.productUid,
        payment.offerUid,
        payment.recordedAt,
        payment.checkoutUrl ?? null,
        payment.expiresAt ?? null,
        payment.shown === undefined ? null : JSON.stringify(payment.shown),
      ]);
    },
    async listPendingPayments({ after, limit }) {
      const { rows } = await executor.query<PendingRow>(sql.listPending, [after ?? '', limit]);
      return rows.map(pendingPaymentOf);
    },
    async listPendingPaymentsOfAccount(accountKey) {
      const { rows } = await executor.query<PendingRow>(sql.listPendingOfAccount, [accountKey]);
      return rows.map(pendingPaymentOf);
    },
    async removePendingPayment(paymentUid) {
      await executor.query(sql.removePending, [paymentUid]);
    },
    async endPendingPayment(paymentUid, { status, failureCode, at, subscriberUid }) {
      await executor.query(sql.endPending, [
        paymentUid,
        status,
        failureCode ?? null,
        at,
        subscriberUid ?? null,
      ]);
    },
    async pruneEndedPayments(endedBefore) {
      const { rows } = await executor.query<{ removed: number }>(sql.pruneEnded, [endedBefore.toISOString()]);
      return rows[0]?.removed ?? 0;
    },
    tryLock: (name) => tryLeaseLock(executor, sql, name),
  };
}
