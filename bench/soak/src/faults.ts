import type { SoakDatabase } from './database.js';
import type { FaultWindow } from './explain.js';
import type { Random } from './prng.js';
import type { ShopProxy } from './proxy.js';
import type { SandboxProcess } from './sandbox-process.js';
import type { SharedTime } from './shared-time.js';
import type { ShopInstance } from './shop-instances.js';

/** When each fault happens, in ms from the start of the load. */
export interface FaultPlan {
  killEveryMs: number;
  pgTerminateEveryMs: number;
  outageAtMs: number;
  outageForMs: number;
  /** Sandbox seconds the clock moves every `clockEveryMs`. */
  clockStepSeconds: number;
  clockEveryMs: number;
}

/**
 * The schedule for a run of `durationMs`: a kill every 3 minutes (every 25 s in a short run), a
 * PostgreSQL backend every 2 minutes, one webhook outage at 40 % of the run lasting 3 minutes
 * (a sixth of a short run), and the sandbox's clock moved every 10 s so that four months pass:
 * trials convert, renewals are charged, grace starts and ends, cancellations take effect.
 */
export function planFaults(durationMs: number): FaultPlan {
  const short = durationMs < 5 * 60_000;
  const clockEveryMs = 10_000;
  const ticks = Math.max(1, Math.floor(durationMs / clockEveryMs));
  return {
    killEveryMs: short ? 25_000 : 3 * 60_000,
    pgTerminateEveryMs: short ? 35_000 : 2 * 60_000,
    outageAtMs: Math.round(durationMs * 0.4),
    outageForMs: short ? Math.round(durationMs / 6) : 3 * 60_000,
    clockStepSeconds: Math.round((120 * 86_400) / ticks),
    clockEveryMs,
  };
}

/** Runs the plan until `stopped()`; every fault that happened is in `windows`. */
export function runFaults(options: {
  plan: FaultPlan;
  startedAt: number;
  durationMs: number;
  random: Random;
  killed: ShopInstance;
  database: SoakDatabase;
  sandbox: SandboxProcess;
  proxy: ShopProxy;
  time: SharedTime;
  log: (line: string) => void;
}): { windows: FaultWindow[]; restartsAt: number[]; done: Promise<void>; stop(): void } {
  const { plan, startedAt, log } = options;
  const windows: FaultWindow[] = [];
  const restartsAt: number[] = [];
  const since = () => Date.now() - startedAt;
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  const tasks: Promise<void>[] = [];
  const every = (ms: number, first: number, task: () => Promise<void>) => {
    let busy = false;
    const tick = () => {
      if (stopped || busy || since() > options.durationMs - 5_000) return;
      busy = true;
      const run = task()
        .catch((error: unknown) => log(`fault task failed: ${(error as Error).message}`))
        .finally(() => {
          busy = false;
        });
      tasks.push(run);
    };
    timers.push(
      setTimeout(() => {
        tick();
        timers.push(setInterval(tick, ms));
      }, first),
    );
  };

  every(plan.killEveryMs, plan.killEveryMs, async () => {
    const window: FaultWindow = { kind: 'kill', instance: options.killed.index, from: since(), to: since() };
    windows.push(window);
    options.killed.kill();
    log(`SIGKILL shop ${options.killed.index} at ${Math.round(window.from / 1000)} s`);
    // A supervisor's restart delay.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await options.killed.start();
    window.to = since();
    restartsAt.push(Math.round(window.to / 1000));
    log(
      `shop ${options.killed.index} listening again after ${Math.round((window.to - window.from) / 100) / 10} s`,
    );
  });
  every(plan.pgTerminateEveryMs, plan.pgTerminateEveryMs, async () => {
    const at = since();
    const pid = await options.database.terminateOneBackend((count) =>
      options.random.int(0, Math.max(0, count - 1)),
    );
    windows.push({ kind: 'pg-terminate', from: at, to: since() });
    log(`pg_terminate_backend(${pid ?? 'none'}) at ${Math.round(at / 1000)} s`);
  });
  timers.push(
    setTimeout(() => {
      if (stopped) return;
      const window: FaultWindow = { kind: 'outage', from: since(), to: since() + plan.outageForMs };
      windows.push(window);
      options.proxy.setWebhookOutage(true);
      log(`webhook outage from ${Math.round(window.from / 1000)} s for ${plan.outageForMs / 1000} s`);
      timers.push(
        setTimeout(() => {
          options.proxy.setWebhookOutage(false);
          window.to = since();
          tasks.push(
            replayDeadLetters(options.sandbox).then((count) => log(`replayed ${count} dead-lettered events`)),
          );
        }, plan.outageForMs),
      );
    }, plan.outageAtMs),
  );
  every(plan.clockEveryMs, plan.clockEveryMs, async () => {
    options.time.move(plan.clockStepSeconds);
    await options.sandbox.runDue();
  });

  return {
    windows,
    restartsAt,
    get done() {
      return Promise.all(tasks).then(() => {});
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      options.proxy.setWebhookOutage(false);
      const outage = windows.find((window) => window.kind === 'outage');
      if (outage && outage.to > since()) outage.to = since();
    },
  };
}

/** Replays every dead-lettered event once; returns how many. */
export async function replayDeadLetters(sandbox: SandboxProcess): Promise<number> {
  const dead = await sandbox.control<{ id: string }[]>('/sandbox/webhooks?status=DEAD_LETTERED');
  for (const { id } of dead) {
    await sandbox.control(`/sandbox/webhooks/${id}/replay`, { method: 'POST' }).catch(() => {});
  }
  return dead.length;
}
