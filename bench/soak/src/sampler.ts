import type { SoakDatabase } from './database.js';
import type { ShopInstance } from './shop-instances.js';
import type { TrafficLog } from './traffic.js';

export interface InstanceSample {
  rssBytes: number | null;
  loopDelayP50Ms: number | null;
  loopDelayP99Ms: number | null;
  loopDelayMaxMs: number | null;
}

/** One 10-s point of the run. */
export interface Sample {
  /** Seconds since the soak started. */
  t: number;
  rps: number;
  checkoutP50Ms: number | null;
  checkoutP99Ms: number | null;
  webhookP50Ms: number | null;
  webhookP99Ms: number | null;
  pgConnections: number | null;
  instances: InstanceSample[];
}

export const SAMPLE_EVERY_MS = 10_000;

/**
 * Every `everyMs` (10 s by default): the proxy's window (rate, route latencies), each instance's
 * RSS and loop delay, PostgreSQL's connections.
 */
export function startSampler(options: {
  startedAt: number;
  everyMs?: number;
  traffic: TrafficLog;
  instances: readonly ShopInstance[];
  database: SoakDatabase;
}): { samples: Sample[]; stop(): Promise<void> } {
  const samples: Sample[] = [];
  let last = Date.now();
  let running: Promise<void> = Promise.resolve();
  const sample = async () => {
    const now = Date.now();
    const window = options.traffic.takeWindow();
    const seconds = Math.max(0.001, (now - last) / 1000);
    last = now;
    const instances = await Promise.all(
      options.instances.map(async (instance): Promise<InstanceSample> => {
        const delay = instance.takeLoopDelay();
        return {
          rssBytes: (await instance.rssBytes()) ?? null,
          loopDelayP50Ms: delay?.p50Ms ?? null,
          loopDelayP99Ms: delay?.p99Ms ?? null,
          loopDelayMaxMs: delay?.maxMs ?? null,
        };
      }),
    );
    const pgConnections = await options.database.connections().catch(() => null);
    samples.push({
      t: Math.round((now - options.startedAt) / 1000),
      rps: Math.round((window.requests / seconds) * 10) / 10,
      checkoutP50Ms: window.routes.checkout?.p50 ?? null,
      checkoutP99Ms: window.routes.checkout?.p99 ?? null,
      webhookP50Ms: window.routes.webhook?.p50 ?? null,
      webhookP99Ms: window.routes.webhook?.p99 ?? null,
      pgConnections,
      instances,
    });
  };
  const timer = setInterval(() => {
    running = running.then(sample).catch(() => {});
  }, options.everyMs ?? SAMPLE_EVERY_MS);
  return {
    samples,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * Least-squares slope of RSS over time, in bytes per minute, after warm-up (the first third of the
 * run, at least a minute). A restarted instance is a new process: each of its lives is fitted on
 * its own, from a minute after it started (a fresh process grows while it loads, which is not a
 * leak), and the slopes are averaged, weighted by their samples. Null when too few samples.
 */
export function rssSlopeBytesPerMinute(
  samples: readonly Sample[],
  instance: number,
  restartsAt: readonly number[],
): number | null {
  const end = samples.at(-1)?.t ?? 0;
  const warmUp = Math.max(60, end / 3);
  const lives = [0, ...restartsAt];
  let weighted = 0;
  let weight = 0;
  lives.forEach((startedAt, life) => {
    const endsAt = lives[life + 1] ?? Number.POSITIVE_INFINITY;
    const points = samples
      .filter((s) => s.t >= Math.max(warmUp, startedAt + 60) && s.t < endsAt)
      .map((s) => [s.t / 60, s.instances[instance]?.rssBytes ?? null] as const)
      .filter((point): point is readonly [number, number] => point[1] !== null);
    const slope = slopeOf(points);
    if (slope === null) return;
    weighted += slope * points.length;
    weight += points.length;
  });
  return weight === 0 ? null : Math.round(weighted / weight);
}

function slopeOf(points: ReadonlyArray<readonly [number, number]>): number | null {
  if (points.length < 3) return null;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  let numerator = 0;
  let denominator = 0;
  for (const [x, y] of points) {
    numerator += (x - meanX) * (y - meanY);
    denominator += (x - meanX) ** 2;
  }
  return denominator === 0 ? null : numerator / denominator;
}
