import type { BenchEvent } from './events.js';
import { median, percentile, runLanes, verdict } from './latency.js';

/** A receiver under comparison; the first side is dcbkit, each other its yardstick. */
export interface Side {
  name: string;
  receive: (event: BenchEvent) => Promise<void>;
}

/** A yardstick: the side dcbkit is divided by, and the goal (none: printed for information). */
export interface Yardstick {
  name: string;
  goal: number | undefined;
  label: string;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

/**
 * Events per second of each side at `concurrency` lanes, in `rounds` rounds of `perRound` events,
 * the sides' order rotating each round so that a burst of noise on a shared machine hits each in
 * turn; then dcbkit's events per second over each yardstick's, the median of the rounds' ratios.
 * `prepare` runs between the warm-up and the rounds.
 */
export async function compareSides(
  sides: readonly Side[],
  yardsticks: readonly Yardstick[],
  options: {
    concurrency: number;
    rounds: number;
    perRound: number;
    freshEvents: (count: number) => BenchEvent[];
    prepare: () => Promise<void>;
  },
): Promise<void> {
  const { concurrency, rounds, perRound, freshEvents } = options;
  const stats = new Map(
    sides.map((side) => [
      side.name,
      { perSecond: [] as number[], latencies: [] as number[], cpu: [] as number[] },
    ]),
  );
  const ratios = new Map(yardsticks.map((yardstick) => [yardstick.name, [] as number[]]));
  // Warm-up: connections open, plans cached, every account's rows created.
  for (const side of sides) await runLanes(freshEvents(1_000), concurrency, side.receive);
  await options.prepare();
  for (let round = 0; round < rounds; round++) {
    const order = sides.map((_, i) => sides[(i + round) % sides.length] as Side);
    const result = new Map<string, number>();
    for (const side of order) {
      const cpu = process.cpuUsage();
      const run = await runLanes(freshEvents(perRound), concurrency, side.receive);
      const used = process.cpuUsage(cpu);
      const stat = stats.get(side.name);
      // This process's CPU time per event: what the receiver's own code costs, beside the database.
      stat?.cpu.push((used.user + used.system) / 1000 / perRound);
      stat?.perSecond.push(run.perSecond);
      stat?.latencies.push(...run.latencies);
      result.set(side.name, run.perSecond);
    }
    const dcbkit = result.get(sides[0]?.name ?? '') ?? 0;
    for (const yardstick of yardsticks)
      ratios.get(yardstick.name)?.push(dcbkit / (result.get(yardstick.name) ?? 1));
  }
  const width = Math.max(...sides.map((side) => side.name.length));
  console.log(
    `\n${concurrency} connection${concurrency > 1 ? 's' : ''} (${rounds} rounds of ${perRound} events each side)`,
  );
  for (const [name, stat] of stats) {
    console.log(
      `  ${name.padEnd(width)} ${median(stat.perSecond).toFixed(0).padStart(6)} events/s   apply latency p50 ${ms(percentile(stat.latencies, 50))}, p99 ${ms(percentile(stat.latencies, 99))}; this process's CPU ${ms(median(stat.cpu))} an event`,
    );
  }
  for (const yardstick of yardsticks) {
    const sorted = [...(ratios.get(yardstick.name) ?? [])].sort((a, b) => a - b);
    const label = `${yardstick.label} at ${concurrency} connection${concurrency > 1 ? 's' : ''} (median of rounds; range ${sorted[0]?.toFixed(3)}–${sorted.at(-1)?.toFixed(3)})`;
    const value = median(sorted);
    console.log(
      `  ${yardstick.goal === undefined ? `info  ${label}: ${value.toFixed(3)}` : verdict(label, value, yardstick.goal)}`,
    );
  }
}
