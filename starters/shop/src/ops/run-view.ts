import type { OfferDefinition, Offers } from '@dcbkit/core';
import { changeText, type Words } from './history-rows.js';
import type { RunSummary } from './reconcile-runs.js';

/** A reconcile run as the operations view shows it, in the page's language. */
export interface RunView {
  startedAt: string;
  finishedAt: string;
  /** "All accounts due", or the account an operator asked for. */
  scope: string;
  accountKey: string | undefined;
  /** "N checked, N changed, N failed." */
  summary: string;
  /** Why it stopped early, in words; undefined when it went through everything due. */
  stopped: string | undefined;
  changes: Array<{
    accountKey: string;
    productUid: string;
    offer: OfferDefinition | undefined;
    reason: string;
    change: string;
    access: string | undefined;
  }>;
  /** Changes not kept in memory (a summary keeps the first ones). */
  moreChanges: number;
  failures: Array<{
    accountKey: string;
    productUid: string;
    offer: OfferDefinition | undefined;
    reason: string;
    code: string;
  }>;
  moreFailures: number;
}

export function runView(run: RunSummary, words: Words, offers: Offers): RunView {
  const { t } = words;
  const offerOf = (productUid: string) => offers.forProduct(productUid)[0];
  return {
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    scope:
      run.accountKey === undefined
        ? t('ops.runs.scope.due')
        : t('ops.runs.scope.account', { account: run.accountKey }),
    accountKey: run.accountKey,
    summary: t('ops.runs.summary', {
      checked: run.checked,
      changed: run.changeCount,
      failed: run.failureCount,
      reads: run.reads,
    }),
    stopped: run.stopped === undefined ? undefined : t(`ops.runs.stopped.${run.stopped}`),
    changes: run.changes.map((change) => ({
      accountKey: change.accountKey,
      productUid: change.productUid,
      offer: offerOf(change.productUid),
      reason: t(`ops.checkReason.${change.reason}`),
      change: changeText(
        words,
        [change.statusBefore, change.unitsBefore],
        [change.statusAfter, change.unitsAfter],
      ),
      access: change.access === undefined ? undefined : t(`ops.access.${change.access}`),
    })),
    moreChanges: run.changeCount - run.changes.length,
    failures: run.failures.map((failure) => ({
      accountKey: failure.accountKey,
      productUid: failure.productUid,
      offer: offerOf(failure.productUid),
      reason: t(`ops.checkReason.${failure.reason}`),
      code: failure.code,
    })),
    moreFailures: run.failureCount - run.failures.length,
  };
}
