import type { ReconcileStore } from '../store/reconcile-store.js';
import { routeError } from './route-error.js';

/** How long a checkout waits for another checkout of the same account and product to finish. */
const WAIT_MS = 5_000;
const FIRST_PAUSE_MS = 20;
const LONGEST_PAUSE_MS = 250;

export type CheckoutLock = <T>(accountKey: string, productUid: string, work: () => Promise<T>) => Promise<T>;

/**
 * One checkout at a time per account and product, so that two submits racing (two tabs, two lines,
 * two instances) start at most one payment: the second waits, then finds the first one's payment
 * open and continues it. In this process a queue per key; across instances the store's lock
 * (`tryLock`, an advisory lock on PostgreSQL) when it has one. A checkout that cannot get the lock
 * within a few seconds is refused with `payment_pending` rather than allowed through.
 */
export function createCheckoutLock(
  store: Partial<Pick<ReconcileStore, 'tryLock'>>,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): CheckoutLock {
  const queues = new Map<string, Promise<void>>();

  async function acrossInstances<T>(name: string, work: () => Promise<T>): Promise<T> {
    if (store.tryLock === undefined) return work();
    const deadline = Date.now() + WAIT_MS;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      const release = await store.tryLock(name);
      if (release !== undefined) {
        try {
          return await work();
        } finally {
          await release();
        }
      }
      if (Date.now() + pause > deadline) {
        throw routeError(
          'payment_pending',
          'A payment for this is already being started; try again in a moment.',
        );
      }
      await sleep(pause);
    }
  }

  return async (accountKey, productUid, work) => {
    const name = `dcbkit:checkout:${JSON.stringify([accountKey, productUid])}`;
    const before = queues.get(name) ?? Promise.resolve();
    let done!: () => void;
    const turn = new Promise<void>((resolve) => {
      done = resolve;
    });
    const mine = before.then(() => turn);
    queues.set(name, mine);
    await before;
    try {
      return await acrossInstances(name, work);
    } finally {
      done();
      if (queues.get(name) === mine) queues.delete(name);
    }
  };
}
