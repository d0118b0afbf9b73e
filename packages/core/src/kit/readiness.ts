import type { DcbClient } from '../client/create-client.js';
import { isDcbError } from '../errors/dcb-error.js';
import type { EntitlementStore } from '../store/entitlement-store.js';

/** One dependency's answer: ok, or the code of what failed. */
export interface ReadinessCheck {
  readonly ok: boolean;
  /** The error's code (`service_unreachable`, `token_refused`, `timeout`…) when not ok. */
  readonly code?: string;
  readonly message?: string;
}

/** `kit.checkReadiness()`: whether this instance can serve billing now, for a load balancer's readiness probe. */
export interface Readiness {
  readonly ready: boolean;
  /** The store answers a read. */
  readonly store: ReadinessCheck;
  /** An access token can be obtained (cached for its lifetime, so a probe does not call the service each time). */
  readonly service: ReadinessCheck;
}

// A read of a key no account has; plain text, as SQL text columns refuse NUL.
const STORE_PROBE_KEY = 'dcbkit:readiness-probe';
const DEFAULT_TIMEOUT_MS = 5_000;

/** Both checks at once, each bounded by `timeoutMs`: a hung database makes the instance not ready, not the probe hang. */
export async function checkReadiness(
  store: Pick<EntitlementStore, 'get'>,
  client: Pick<DcbClient, 'checkConnection'>,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<Readiness> {
  const [storeCheck, serviceCheck] = await Promise.all([
    probe(() => store.get(STORE_PROBE_KEY, STORE_PROBE_KEY), timeoutMs),
    probe(() => client.checkConnection(), timeoutMs),
  ]);
  return { ready: storeCheck.ok && serviceCheck.ok, store: storeCheck, service: serviceCheck };
}

async function probe(work: () => Promise<unknown>, timeoutMs: number): Promise<ReadinessCheck> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<ReadinessCheck>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, code: 'timeout', message: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([
      work().then(
        (): ReadinessCheck => ({ ok: true }),
        (error: unknown): ReadinessCheck => ({
          ok: false,
          code: isDcbError(error) ? error.code : 'error',
          message: error instanceof Error ? error.message : String(error),
        }),
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
