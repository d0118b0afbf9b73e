import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Pinning } from '@dcbkit-bench/shared';
import type { Framework, Variant } from './apps.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

export interface Server {
  port: number;
  child: ChildProcess;
}

const started = new Set<ChildProcess>();

/**
 * Starts one route's server on the server core and waits until it listens; rejects when the
 * server exits first (a failed import, say) rather than waiting for a port that never comes.
 */
export async function startServer(
  pinning: Pinning,
  framework: Framework,
  variant: Variant,
  nodeFlags: readonly string[] = [],
): Promise<Server> {
  const { command, args } = pinning.wrap('server', process.execPath, [
    ...nodeFlags,
    '--import',
    'tsx',
    SERVER,
    framework,
    variant,
  ]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  started.add(child);
  child.on('exit', () => started.delete(child));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) =>
      reject(new Error(`${framework} ${variant} server exited (${code}) before listening`)),
    );
    child.once('error', reject);
  });
  return { port, child };
}

/** Ends every server still running: after an error, none may be left behind. */
export function killStartedServers(): void {
  for (const child of started) child.kill('SIGKILL');
}

export interface ServerStats {
  cpuMicros: number;
  served: number;
}

/** The server's CPU time so far and the requests it served: asked before and after each run. */
export async function serverStats(server: Server): Promise<ServerStats> {
  server.child.send('stats');
  const [answer] = (await once(server.child, 'message')) as [ServerStats];
  return answer;
}

export async function stopServer(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
}
