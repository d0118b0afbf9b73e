import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Where the HTTP bench's processes run. With two or more cores and taskset (util-linux), the
 * server gets core 0 and the load generator core 1, so neither steals the other's time and the
 * server's rate is what one core gives. Otherwise both float, and the output says so: a load
 * generator on the server's core turns every microsecond of server work into more than a
 * microsecond of lost throughput.
 */
export interface Pinning {
  pinned: boolean;
  /** Cores this process may use: with one, the load generator takes the server's core whatever the pinning. */
  cores: number;
  /** The command and leading arguments that start `command args…` on the given role's core. */
  wrap(role: 'server' | 'load', command: string, args: string[]): { command: string; args: string[] };
  describe: string;
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function planPinning(): Pinning {
  const cores = availableParallelism();
  const taskset = hasTaskset();
  if (cores >= 2 && taskset) {
    const cpuOf = { server: '0', load: '1' } as const;
    return {
      pinned: true,
      cores,
      wrap: (role, command, args) => ({ command: 'taskset', args: ['-c', cpuOf[role], command, ...args] }),
      describe: `server pinned to core 0, load generator to core 1 (taskset; ${cores} cores)`,
    };
  }
  const why = cores < 2 ? `only ${cores} core` : 'taskset (util-linux) not found';
  return {
    pinned: false,
    cores,
    wrap: (_role, command, args) => ({ command, args }),
    describe: `NOT PINNED (${why}): server and load generator share the cores; ratios understate dcbkit`,
  };
}
