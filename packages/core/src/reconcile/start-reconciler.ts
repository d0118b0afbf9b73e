import { optionError } from '../errors/option-error.js';
import type { DcbLogger } from '../observability/logger.js';
import { RECONCILE_LOCK, type ReconcileStore, type ReleaseLock } from '../store/reconcile-store.js';
import type { ReconcileRunOptions } from './reconcile-options.js';
import type { ReconcileReport } from './reconcile-report.js';

export interface StartReconcilerOptions extends Omit<ReconcileRunOptions, 'signal'> {
  /** Time between the end of one run and the start of the next. The first run starts at once. */
  everyMs: number;
  /** Aborting it stops the reconciler as `stop()` does. */
  signal?: AbortSignal;
  /** Receives each run's report (runs skipped because another instance holds the lock have none). */
  onReport?: (report: ReconcileReport) => void;
}

export interface Reconciler {
  /** Stops the timer, aborts a run in progress, and resolves once it has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `runOnce` every `everyMs` under the store's lock (`tryLock`), so that of several instances
 * sharing a database one reads at a time; the others skip that turn. A failed run is logged and
 * the next one comes as planned. The timer does not keep the process alive.
 */
export function startReconciler(
  runOnce: (options: ReconcileRunOptions) => Promise<ReconcileReport>,
  store: Pick<ReconcileStore, 'tryLock'>,
  logger: DcbLogger,
  options: StartReconcilerOptions,
): Reconciler {
  const { everyMs, signal, onReport, ...runOptions } = options ?? ({} as StartReconcilerOptions);
  if (!Number.isSafeInteger(everyMs) || everyMs < 1) {
    throw optionError(
      'startReconciler',
      'everyMs',
      `must be a whole number of milliseconds >= 1, got ${String(everyMs)}.`,
    );
  }
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = (ms: number) => {
    if (controller.signal.aborted) return;
    timer = setTimeout(() => {
      running = turn().finally(() => {
        running = undefined;
        schedule(everyMs);
      });
    }, ms);
    timer.unref?.();
  };

  const turn = async () => {
    let release: ReleaseLock | undefined;
    try {
      release = await store.tryLock(RECONCILE_LOCK);
      if (release === undefined) {
        logger.debug?.({}, 'dcbkit: reconciliation skipped: another instance is running it');
        return;
      }
      const report = await runOnce({ ...runOptions, signal: controller.signal });
      onReport?.(report);
    } catch (error) {
      logger.error?.({ err: error }, `dcbkit: reconciliation failed: ${(error as Error)?.message}`);
    } finally {
      await release?.().catch((error: unknown) =>
        logger.error?.({ err: error }, 'dcbkit: the reconciliation lock could not be released'),
      );
    }
  };

  const stop = async () => {
    controller.abort();
    clearTimeout(timer);
    await running;
  };
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener('abort', () => void stop(), { once: true });
  schedule(0);
  return { stop };
}
