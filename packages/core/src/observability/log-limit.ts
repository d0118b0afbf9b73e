/**
 * True when a log line for `key` may be written now: at most once per `intervalMs` per key, so a
 * broken setup (a wrong secret, a refused client) is said clearly without flooding the log.
 */
export function createLogLimit(intervalMs = 60_000, now: () => number = Date.now): (key: string) => boolean {
  const lastLogged = new Map<string, number>();
  return (key) => {
    const at = now();
    const last = lastLogged.get(key);
    if (last !== undefined && at - last < intervalMs) return false;
    lastLogged.set(key, at);
    return true;
  };
}
