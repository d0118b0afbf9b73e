/**
 * Side-by-side timing for benchmarks: every candidate runs in each round, in rotating order, and
 * the median of the rounds is kept, so a burst of noise on a shared machine hits all of them.
 */
export interface Candidate {
  name: string;
  run: () => unknown;
}

export interface Result {
  name: string;
  nsPerOp: number;
  opsPerSecond: number;
}

export function measure(
  candidates: Candidate[],
  opts: { iterations: number; rounds: number },
): Map<string, Result> {
  const samples = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  for (const candidate of candidates) {
    for (let i = 0; i < Math.ceil(opts.iterations / 4); i++) candidate.run();
  }
  for (let round = 0; round < opts.rounds; round++) {
    for (let k = 0; k < candidates.length; k++) {
      const candidate = candidates[(round + k) % candidates.length] as Candidate;
      const start = process.hrtime.bigint();
      for (let i = 0; i < opts.iterations; i++) candidate.run();
      samples.get(candidate.name)?.push(Number(process.hrtime.bigint() - start) / opts.iterations);
    }
  }
  const results = new Map<string, Result>();
  for (const [name, values] of samples) {
    const sorted = values.sort((a, b) => a - b);
    const nsPerOp = sorted[Math.floor(sorted.length / 2)] as number;
    results.set(name, { name, nsPerOp, opsPerSecond: 1e9 / nsPerOp });
  }
  return results;
}

/** Throughput of `a` as a share of `b`'s: 1.0 means as fast, 0.8 means 20 % fewer operations per second. */
export function ratio(results: Map<string, Result>, a: string, b: string): number {
  const ra = results.get(a);
  const rb = results.get(b);
  if (!ra || !rb) throw new Error(`unknown candidate ${ra ? b : a}`);
  return rb.nsPerOp / ra.nsPerOp;
}

export function verdict(label: string, value: number, target: number, comparison: '>=' | '>' = '>='): string {
  const ok = comparison === '>=' ? value >= target : value > target;
  return `${ok ? 'PASS' : 'MISS'}  ${label}: ${value.toFixed(3)} (target ${comparison} ${target})`;
}
