/**
 * Side-by-side timing for in-process benchmarks: a warm-up of every candidate, then rounds in
 * which every candidate runs once, in rotating order, so that a burst of noise on a shared
 * machine hits all of them. Each round's figures are kept: ratios are taken round by round
 * (paired), then summarised as median, min and max. Both wall time and the process's CPU time
 * are taken: on a busy machine the wall time also counts the time spent waiting for a core,
 * which the CPU time does not (see cpuClock).
 */
import { type Spread, spread } from './stats.js';

export interface Candidate {
  name: string;
  run: () => unknown;
}

export interface Result {
  name: string;
  /** Median over the rounds, wall time. */
  nsPerOp: number;
  opsPerSecond: number;
  /** Wall nanoseconds per operation in each round, in round order. */
  rounds: number[];
  spread: Spread;
  /** CPU nanoseconds per operation in each round, in round order. */
  cpuRounds: number[];
  cpuSpread: Spread;
}

/**
 * The process's CPU time in nanoseconds (user + system, all threads, so GC helpers count):
 * microsecond resolution, fine for rounds of tens of milliseconds.
 */
export function cpuClock(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}

export function measure(
  candidates: Candidate[],
  opts: { iterations: number; rounds: number },
): Map<string, Result> {
  const samples = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  const cpuSamples = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  for (const candidate of candidates) {
    for (let i = 0; i < Math.ceil(opts.iterations / 2); i++) candidate.run();
  }
  for (let round = 0; round < opts.rounds; round++) {
    for (let k = 0; k < candidates.length; k++) {
      const candidate = candidates[(round + k) % candidates.length] as Candidate;
      const cpuStart = cpuClock();
      const start = process.hrtime.bigint();
      for (let i = 0; i < opts.iterations; i++) candidate.run();
      samples.get(candidate.name)?.push(Number(process.hrtime.bigint() - start) / opts.iterations);
      cpuSamples.get(candidate.name)?.push((cpuClock() - cpuStart) / opts.iterations);
    }
  }
  const results = new Map<string, Result>();
  for (const [name, rounds] of samples) {
    const summary = spread(rounds);
    const cpuRounds = cpuSamples.get(name) as number[];
    results.set(name, {
      name,
      nsPerOp: summary.median,
      opsPerSecond: 1e9 / summary.median,
      rounds,
      spread: summary,
      cpuRounds,
      cpuSpread: spread(cpuRounds),
    });
  }
  return results;
}

/**
 * Throughput of `a` as a share of `b`'s, round by round: 1.0 means as fast, 0.8 means 20 % fewer
 * operations per second.
 */
export function ratio(
  results: Map<string, Result>,
  a: string,
  b: string,
  clock: 'wall' | 'cpu' = 'wall',
): Spread {
  const ra = results.get(a);
  const rb = results.get(b);
  if (!ra || !rb) throw new Error(`unknown candidate ${ra ? b : a}`);
  return clock === 'wall' ? pairedRatio(ra.rounds, rb.rounds) : pairedRatio(ra.cpuRounds, rb.cpuRounds);
}

/** Per-round throughput share of `a` against `b`, from times per operation. */
export function pairedRatio(aNs: readonly number[], bNs: readonly number[]): Spread {
  return spread(aNs.map((ns, round) => (bNs[round] as number) / ns));
}

/** `PASS  label: 0.912 (0.887–0.930) (target >= 0.85)`; the median decides. */
export function verdict(
  label: string,
  value: number | Spread,
  target: number,
  comparison: '>=' | '>' | '<=' = '>=',
): string {
  const median = typeof value === 'number' ? value : value.median;
  const ok = comparison === '>=' ? median >= target : comparison === '>' ? median > target : median <= target;
  const shown =
    typeof value === 'number'
      ? value.toFixed(3)
      : `${value.median.toFixed(3)} (min ${value.min.toFixed(3)}, max ${value.max.toFixed(3)})`;
  return `${ok ? 'PASS' : 'MISS'}  ${label}: ${shown} (target ${comparison} ${target})`;
}
