/**
 * The summary every bench prints for a set of paired rounds: the median, which one noisy round
 * cannot move, with the min and max, so a reader sees how far the rounds spread.
 */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error('spread of no values');
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)] as number,
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
  };
}

/** `0.912 (0.887–0.930)`: a ratio's median with its range over the rounds. */
export function formatSpread(value: Spread, digits = 3): string {
  return `${value.median.toFixed(digits)} (${value.min.toFixed(digits)}–${value.max.toFixed(digits)})`;
}

/** A whole number with thousands separators, right-aligned. */
export function formatCount(value: number, width = 0): string {
  return Math.round(value).toLocaleString('en').padStart(width);
}
