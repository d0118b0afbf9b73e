/**
 * The create rate under a steady load, against the rate of a fresh sandbox. A partner's soak test
 * creates payments at a steady pace for days of sandbox time: past 24 hours the idempotency window
 * starts forgetting keys (one per create), payments expire and retention frees them, so every
 * create also pays for some purging. That purging must stay O(1) per create: the rate past 24
 * hours is to be >= 0.9 of a fresh sandbox's.
 *
 * Paired rounds: two sandboxes in one process, driven by the same steps (creates, then a clock
 * advance): one past 24 hours of sandbox time, one that stays within its first hours. A round
 * runs a step on each in turn, the first alternating, so a burst of noise on a shared machine hits
 * both. Only the creates are timed: the advance is the bench moving time.
 */
import { createClock, type Sandbox, type SandboxConfig, startSandbox } from '@dcbkit/sandbox';
import { formatCount, median } from './figures.js';

/** Creates per step, then the clock moves STEP_SECONDS: 144,000 keys held in a 24-hour window. */
const STEP_CREATES = 500;
const STEP_SECONDS = 300;
const WINDOW_SECONDS = 24 * 3600;
/** Steps of one measured round (on each side). */
const ROUND_STEPS = 6;
/** Tokens live an hour of sandbox time: a new one every few steps. */
const TOKEN_EVERY_STEPS = 5;

export interface SteadyLoadOptions {
  config: SandboxConfig;
  rounds: number;
  concurrency: number;
  /** POSTs one payment with a new idempotency key. */
  createOne(sandbox: Sandbox, bearer: string): Promise<unknown>;
  token(sandbox: Sandbox): Promise<string>;
}

export interface SteadyLoadResult {
  freshPerSecond: number;
  steadyPerSecond: number;
  /** Steady / fresh create rate, round by round (wall time). */
  ratios: number[];
  /** The same from the CPU time per create (the process's, server and load generator). */
  cpuRatios: number[];
  /** Sandbox hours each had run when the last round ended: the fresh one never reaches 24. */
  freshHours: number;
  steadyHours: number;
  steadyCreates: number;
}

/** One sandbox driven in steps; it times its creates only, in wall and CPU time. */
class Driver {
  private steps = 0;
  private bearer = '';
  creates = 0;
  createMs = 0;
  createCpuMs = 0;

  private constructor(
    readonly sandbox: Sandbox,
    private readonly options: SteadyLoadOptions,
  ) {}

  static async start(options: SteadyLoadOptions): Promise<Driver> {
    const clock = createClock({ start: '2030-01-01T00:00:00Z', frozen: true });
    const driver = new Driver(await startSandbox({ port: 0, config: options.config, clock }), options);
    driver.bearer = await options.token(driver.sandbox);
    return driver;
  }

  get hours(): number {
    return (this.steps * STEP_SECONDS) / 3600;
  }

  /** Creates `count` payments, `concurrency` in flight. */
  async create(count: number): Promise<void> {
    const started = performance.now();
    const cpuStarted = cpuMs();
    let next = 0;
    await Promise.all(
      Array.from({ length: this.options.concurrency }, async () => {
        while (next < count) {
          next++;
          await this.options.createOne(this.sandbox, this.bearer);
        }
      }),
    );
    this.creates += count;
    this.createMs += performance.now() - started;
    this.createCpuMs += cpuMs() - cpuStarted;
  }

  /** One step: the creates (timed), then the clock moves on. */
  async step(): Promise<void> {
    await this.create(STEP_CREATES);
    await this.sandbox.advanceClock(STEP_SECONDS);
    this.steps++;
    if (this.steps % TOKEN_EVERY_STEPS === 0) this.bearer = await this.options.token(this.sandbox);
  }
}

export async function steadyLoad(options: SteadyLoadOptions): Promise<SteadyLoadResult> {
  const steady = await Driver.start(options);
  const fresh = await Driver.start(options);
  try {
    // Past the window by a few steps: every create now forgets a key as it adds one.
    const buildSteps = Math.ceil(WINDOW_SECONDS / STEP_SECONDS) + 2;
    for (let i = 0; i < buildSteps; i++) await steady.step();
    await fresh.step();
    const rates = { fresh: [] as number[], steady: [] as number[] };
    const cpu = { fresh: [] as number[], steady: [] as number[] };
    for (let round = 0; round < options.rounds; round++) {
      const before = { fresh: snapshot(fresh), steady: snapshot(steady) };
      // Step by step, the first side alternating, so that noise lands on both alike.
      for (let step = 0; step < ROUND_STEPS; step++) {
        const order = (round + step) % 2 === 0 ? [steady, fresh] : [fresh, steady];
        for (const driver of order) await driver.step();
      }
      for (const [name, driver] of [
        ['fresh', fresh],
        ['steady', steady],
      ] as const) {
        const creates = ROUND_STEPS * STEP_CREATES;
        rates[name].push(creates / ((driver.createMs - before[name].ms) / 1000));
        cpu[name].push((driver.createCpuMs - before[name].cpuMs) / creates);
      }
    }
    return {
      freshPerSecond: median(rates.fresh),
      steadyPerSecond: median(rates.steady),
      ratios: rates.steady.map((rate, round) => rate / (rates.fresh[round] as number)),
      cpuRatios: cpu.steady.map((ms, round) => (cpu.fresh[round] as number) / ms),
      freshHours: fresh.hours,
      steadyHours: steady.hours,
      steadyCreates: steady.creates,
    };
  } finally {
    await Promise.all([steady.sandbox.close(), fresh.sandbox.close()]);
  }
}

function snapshot(driver: Driver): { ms: number; cpuMs: number } {
  return { ms: driver.createMs, cpuMs: driver.createCpuMs };
}

/** The process's CPU time (user + system), in milliseconds: the server and the load generator. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export function describeSteadyLoad(): string {
  return `${formatCount(STEP_CREATES)} creates then +${STEP_SECONDS} s of sandbox time per step (${formatCount((WINDOW_SECONDS / STEP_SECONDS) * STEP_CREATES)} keys in the 24-hour window); rounds of ${ROUND_STEPS} steps on each side`;
}
