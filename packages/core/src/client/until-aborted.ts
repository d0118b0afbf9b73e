import { DcbError } from '../errors/dcb-error.js';

/** Waits for `promise`, or rejects with `aborted` as soon as the caller's signal fires. */
export function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  method: string,
  path: string,
): Promise<T> {
  if (signal === undefined) return promise;
  const aborted = () =>
    new DcbError('aborted', `${method} ${path}: aborted by the caller's signal.`, {
      cause: signal.reason,
      details: { method, path },
    });
  // The work goes on (a shared token request serves other calls): its failure is theirs to see.
  promise.catch(() => {});
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
