/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 3 : 1)} ms`;
}

export function verdict(pass: boolean): 'PASS' | 'MISS' {
  return pass ? 'PASS' : 'MISS';
}

/** Collects garbage when node runs with --expose-gc, so heap figures mean what is held. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
