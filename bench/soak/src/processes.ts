import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

/** A child in a process group of its own, so a kill reaches everything it started. */
export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  readonly pid: number;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

const running = new Set<Child>();
let hooked = false;

/** Every child still running gets SIGKILL: on exit, on Ctrl+C, on an uncaught failure. */
export function killAllChildren(): void {
  for (const child of running) child.kill('SIGKILL');
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', killAllChildren);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAllChildren();
      process.exit(130);
    });
  }
}

/** Output kept per child: the last 200 KiB, enough to explain a failure without growing for an hour. */
const MAX_OUTPUT = 200 * 1024;

export function startChild(
  name: string,
  command: string,
  args: readonly string[],
  options: SpawnOptions & { ipc?: boolean; logFile?: string } = {},
): Child {
  hookExit();
  const { ipc, logFile, ...spawnOptions } = options;
  const child = spawn(command, args, {
    ...spawnOptions,
    detached: true,
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > MAX_OUTPUT) output = output.slice(-MAX_OUTPUT / 2);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  if (logFile !== undefined) {
    // Every run of a restarted instance appended to one file, for what a failure needs explained.
    const file = createWriteStream(logFile, { flags: 'a' });
    file.write(`--- ${name} started ${new Date().toISOString()}\n`);
    child.stdout?.pipe(file, { end: false });
    child.stderr?.pipe(file, { end: false });
    child.once('exit', (code, signal) => file.end(`--- ${name} exited ${code ?? signal}\n`));
  }
  const pid = child.pid;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const handle: Child = {
    name,
    process: child,
    pid,
    output: () => output,
    exited,
    kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-pid, signal);
      } catch {
        // The group is gone already.
      }
    },
  };
  running.add(handle);
  void exited.then(() => running.delete(handle));
  return handle;
}

/** Waits until the child prints `ready`; rejects when it exits first or after `timeoutMs`. */
export function waitForOutput(child: Child, ready: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${child.name} did not print ${ready} within ${timeoutMs} ms:\n${child.output()}`));
    }, timeoutMs);
    const check = () => {
      const match = ready.exec(child.output());
      if (match) {
        cleanup();
        resolve(match[0]);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`${child.name} exited (${code}) before it was ready:\n${child.output()}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.process.stdout?.off('data', check);
      child.process.stderr?.off('data', check);
      child.process.off('exit', onExit);
    };
    child.process.stdout?.on('data', check);
    child.process.stderr?.on('data', check);
    child.process.once('exit', onExit);
    check();
  });
}

/** SIGTERM, then SIGKILL if it has not ended after `graceMs`. */
export async function stopChild(child: Child, graceMs = 5_000): Promise<void> {
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}
