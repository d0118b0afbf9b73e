/**
 * Paired rounds, as bench/shared's measure, for candidates that are not all synchronous in this
 * thread: an async function awaited call by call, or work done in a worker thread. Each candidate
 * times its own rounds; the rounds rotate the order as measure does, and the results have its
 * shape, so shared's ratio and verdict read them.
 */
import { cpuClock, type Result, spread } from '@dcbkit-bench/shared';

export interface RoundTimes {
  /** Nanoseconds per operation, wall time and the process's CPU time. */
  wallNs: number;
  cpuNs: number;
}

export interface TimedCandidate {
  name: string;
  round(iterations: number): Promise<RoundTimes>;
}

/** A synchronous function, looped as measure loops it. */
export function syncCandidate(name: string, run: () => unknown): TimedCandidate {
  return {
    name,
    round: async (iterations) =>
      timeRound(iterations, () => {
        for (let i = 0; i < iterations; i++) run();
      }),
  };
}

/** An async function, awaited call by call: one delivery verified after another. */
export function asyncCandidate(name: string, run: () => Promise<unknown>): TimedCandidate {
  return {
    name,
    round: async (iterations) => {
      const cpuStart = cpuClock();
      const start = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) await run();
      return finish(iterations, start, cpuStart);
    },
  };
}

export function timeRound(iterations: number, loop: () => void): RoundTimes {
  const cpuStart = cpuClock();
  const start = process.hrtime.bigint();
  loop();
  return finish(iterations, start, cpuStart);
}

function finish(iterations: number, start: bigint, cpuStart: number): RoundTimes {
  return {
    wallNs: Number(process.hrtime.bigint() - start) / iterations,
    cpuNs: (cpuClock() - cpuStart) / iterations,
  };
}

export async function measureRounds(
  candidates: readonly TimedCandidate[],
  opts: { iterations: number; rounds: number },
): Promise<Map<string, Result>> {
  const wall = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  const cpu = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  for (const candidate of candidates) await candidate.round(Math.ceil(opts.iterations / 2));
  for (let round = 0; round < opts.rounds; round++) {
    for (let k = 0; k < candidates.length; k++) {
      const candidate = candidates[(round + k) % candidates.length] as TimedCandidate;
      const times = await candidate.round(opts.iterations);
      wall.get(candidate.name)?.push(times.wallNs);
      cpu.get(candidate.name)?.push(times.cpuNs);
    }
  }
  const results = new Map<string, Result>();
  for (const [name, rounds] of wall) {
    const summary = spread(rounds);
    const cpuRounds = cpu.get(name) as number[];
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
