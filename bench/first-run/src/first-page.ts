import { spawn } from 'node:child_process';

export interface TimedStart {
  /** From the command's launch to the first HTTP 200 of the shop's page. */
  firstPageMs: number;
  /** After Ctrl+C: did the shop say it stopped, and did nothing report a failure? */
  cleanStop: boolean;
  output: string;
}

const FAILURE_NOISE = /ERR_PNPM|ELIFECYCLE|Command failed|Exit status/;

/**
 * Runs `command` in `cwd` as a terminal runs a job (a process group of its own), waits for the
 * shop's address, asks for its page until it answers 200, then stops the job with Ctrl+C's
 * SIGINT to the whole group and waits for it to end.
 */
export async function timeFirstPage(command: string, cwd: string, timeoutMs: number): Promise<TimedStart> {
  const started = performance.now();
  const child = spawn('sh', ['-c', command], {
    cwd,
    // PORT=0: a free port, read from the address the shop prints (3000 may be taken here).
    env: { ...readerEnvironment(), PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let exited = false;
  void ended.then(() => {
    exited = true;
  });
  const group = child.pid as number;
  try {
    let firstPageMs: number | undefined;
    while (firstPageMs === undefined) {
      if (exited) throw new Error(`the command ended before the shop answered:\n${output}`);
      if (performance.now() - started > timeoutMs)
        throw new Error(`no page within ${timeoutMs} ms:\n${output}`);
      const url = /Shop running at (http:\/\/\S+)/.exec(output)?.[1];
      if (url && (await answers200(url))) firstPageMs = performance.now() - started;
      else await sleep(100);
    }
    process.kill(-group, 'SIGINT');
    await Promise.race([ended, sleep(15_000)]);
    const cleanStop = exited && output.includes('Shop stopped.') && !FAILURE_NOISE.test(output);
    return { firstPageMs, cleanStop, output };
  } finally {
    if (!exited) process.kill(-group, 'SIGKILL');
  }
}

/**
 * The environment of a reader's shell: without what `pnpm bench` adds for its scripts (npm_* and
 * pnpm's settings, node_modules/.bin on PATH) and without CI, which changes what pnpm does.
 */
function readerEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|pnpm_|CI$)/i.test(name)),
  );
  env.PATH = (process.env.PATH ?? '')
    .split(':')
    .filter((folder) => !folder.includes('node_modules'))
    .join(':');
  return env;
}

async function answers200(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
