/** Runs `work` over the items with `concurrency` lanes; returns events per second and each item's latency (ms). */
export async function runLanes<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<{ perSecond: number; latencies: number[] }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        const t0 = performance.now();
        await work(item);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { perSecond: items.length / ((performance.now() - started) / 1000), latencies };
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function verdict(label: string, value: number, target: number): string {
  return `${value >= target ? 'PASS' : 'MISS'}  ${label}: ${value.toFixed(3)} (target >= ${target})`;
}
