/**
 * One load run against one route, from a process of its own pinned to the load generator's core:
 * wrk (C, a few µs per request, so it never limits a one-core Node server) when installed, else
 * autocannon in a child process. Both send a pool of pre-signed requests and report the same
 * figures.
 */
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Pinning } from '@dcbkit-bench/shared';

export interface LoadResult {
  requests: number;
  durationUs: number;
  applied: number;
  duplicate: number;
  other: number;
  /** A pool that ran out (see wrk-pool.lua): some events were sent twice. */
  exhausted: number;
  socketErrors: number;
}

export interface LoadRun {
  port: number;
  poolPath: string;
  /** Send the pool again from the start when it runs out (the duplicates case). */
  cycle: boolean;
  seconds: number;
  connections: number;
}

export type LoadGenerator = 'wrk' | 'autocannon';

/** wrk when installed; BENCH_LOAD=autocannon forces the fallback (to check it still works). */
export function pickLoadGenerator(): LoadGenerator {
  if (process.env.BENCH_LOAD === 'autocannon') return 'autocannon';
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return 'wrk';
  } catch (error) {
    // wrk --version exits 1 after printing its version: present all the same.
    return (error as { code?: string }).code === 'ENOENT' ? 'autocannon' : 'wrk';
  }
}

const WRK_SCRIPT = fileURLToPath(new URL('./wrk-pool.lua', import.meta.url));
const AUTOCANNON_RUNNER = fileURLToPath(new URL('./load-autocannon.ts', import.meta.url));

export async function runLoad(generator: LoadGenerator, pinning: Pinning, run: LoadRun): Promise<LoadResult> {
  const { command, args } =
    generator === 'wrk'
      ? pinning.wrap('load', 'wrk', [
          '-t1',
          `-c${run.connections}`,
          `-d${run.seconds}s`,
          '-s',
          WRK_SCRIPT,
          `http://127.0.0.1:${run.port}/webhooks`,
        ])
      : pinning.wrap('load', process.execPath, ['--import', 'tsx', AUTOCANNON_RUNNER]);
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      BENCH_POOL: run.poolPath,
      BENCH_CYCLE: run.cycle ? '1' : '0',
      BENCH_PORT: String(run.port),
      BENCH_SECONDS: String(run.seconds),
      BENCH_CONNECTIONS: String(run.connections),
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const line = output.split('\n').find((l) => l.startsWith('BENCH '));
  if (code !== 0 || line === undefined) {
    throw new Error(`${generator} exited ${code} without a result:\n${output}`);
  }
  return JSON.parse(line.slice('BENCH '.length)) as LoadResult;
}
