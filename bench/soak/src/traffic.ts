/** The routes whose latency the report gives apart; the rest are `page`. */
export type RouteName = 'checkout' | 'webhook' | 'return' | 'page';

export function routeOf(method: string, url: string): RouteName {
  const path = url.split('?')[0] ?? url;
  if (path === '/webhooks/dcb') return 'webhook';
  if (method === 'POST' && path === '/checkout') return 'checkout';
  if (path === '/return') return 'return';
  return 'page';
}

export interface Answered {
  route: RouteName;
  status: number;
  ms: number;
  /** The instance that answered, null when the proxy answered itself. */
  instance: number | null;
  /** The start of a 5xx answer's body, else null. */
  body: string | null;
}

/** A 5xx as it was seen, for the verdict to explain. */
export interface ServerError extends Answered {
  /** ms since the soak started. */
  at: number;
}

/**
 * Every answer the proxy gave: latencies per route for the whole run and for the current 10-s
 * window, counts, and every 5xx with its time. An hour of requests is a few million numbers: a few MB.
 */
export class TrafficLog {
  readonly serverErrors: ServerError[] = [];
  /** Answers slower than 20 s (the first 100): a subscriber gave up long before. */
  readonly slow: ServerError[] = [];
  private readonly all = new Map<RouteName, number[]>();
  private window = new Map<RouteName, number[]>();
  private windowCount = 0;
  total = 0;

  constructor(private startedAt: number) {}

  /** The load starts now: what came before (instances starting) is forgotten. */
  restart(startedAt: number): void {
    this.startedAt = startedAt;
    this.all.clear();
    this.window = new Map();
    this.windowCount = 0;
    this.total = 0;
    this.serverErrors.length = 0;
    this.slow.length = 0;
  }

  record(answer: Answered): void {
    this.total++;
    this.windowCount++;
    for (const bucket of [this.all, this.window]) {
      const list = bucket.get(answer.route) ?? [];
      list.push(answer.ms);
      bucket.set(answer.route, list);
    }
    if (answer.status >= 500) this.serverErrors.push({ ...answer, at: Date.now() - this.startedAt });
    if (answer.ms > 20_000 && this.slow.length < 100)
      this.slow.push({ ...answer, at: Date.now() - this.startedAt });
  }

  /** The window since the last call: requests and p50/p99 per route. */
  takeWindow(): { requests: number; routes: Record<string, { p50: number; p99: number; count: number }> } {
    const routes = summarise(this.window);
    const requests = this.windowCount;
    this.window = new Map();
    this.windowCount = 0;
    return { requests, routes };
  }

  overall(): Record<string, { p50: number; p99: number; count: number }> {
    return summarise(this.all);
  }
}

function summarise(
  bucket: Map<RouteName, number[]>,
): Record<string, { p50: number; p99: number; count: number }> {
  const out: Record<string, { p50: number; p99: number; count: number }> = {};
  for (const [route, list] of bucket) {
    const sorted = Float64Array.from(list).sort();
    out[route] = { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), count: sorted.length };
  }
  return out;
}

export function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  const value = sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return Math.round(value * 10) / 10;
}
