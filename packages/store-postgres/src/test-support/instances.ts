import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { type Answer, answerOf } from './deliver.js';
import type { SignedDelivery } from './event-stream.js';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));

/** The workspace packages the child imports, taken from their sources as vitest does. */
const SOURCES: Record<string, string> = {
  '@dcbkit/core': join(repoRoot, 'packages/core/src/index.ts'),
  '@dcbkit/store-postgres': join(packageDir, 'src/index.ts'),
};

export interface InstanceBundle {
  file: string;
  remove(): Promise<void>;
}

/**
 * Bundles webhook-instance.ts, with core and this package from their sources, into one .mjs that
 * plain `node` runs: no build of the packages needed first, and no TypeScript loader (tsx) either.
 * Written under this package's node_modules so that `pg` resolves from it and git ignores it.
 */
export async function bundleInstance(): Promise<InstanceBundle> {
  const outDir = await mkdtemp(join(packageDir, 'node_modules', '.dcbkit-test-instance-'));
  await build({
    config: false,
    silent: true,
    entry: { 'webhook-instance': join(packageDir, 'src/test-support/webhook-instance.ts') },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    outExtension: () => ({ js: '.mjs' }),
    dts: false,
    sourcemap: false,
    splitting: false,
    clean: false,
    noExternal: [/^@dcbkit\//],
    external: ['pg', 'pg-oldest', 'pg-native', '@electric-sql/pglite'],
    esbuildPlugins: [
      {
        name: 'dcbkit-sources',
        setup(builder) {
          builder.onResolve({ filter: /^@dcbkit\/(core|store-postgres)$/ }, (args) => ({
            path: SOURCES[args.path] as string,
          }));
        },
      },
    ],
  });
  return {
    file: join(outDir, 'webhook-instance.mjs'),
    remove: () => rm(outDir, { recursive: true, force: true }),
  };
}

export interface Instance {
  readonly child: ChildProcess;
  /** Hands one signed delivery to the instance; answers `network` (status 0) if it dies first. */
  send(delivery: SignedDelivery): Promise<Answer>;
  /** Ends the process: SIGKILL to emulate a crash (nothing runs after it), SIGTERM otherwise. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts one app instance as a separate process and waits until it is ready. */
export function startInstance(bundle: InstanceBundle, env: Record<string, string>): Promise<Instance> {
  const child = fork(bundle.file, [], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const waiting = new Map<number, (answer: Answer) => void>();
  let nextId = 0;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      // Deliveries in flight when the process died get no answer, as a dropped connection.
      for (const answer of waiting.values()) answer({ status: 0, outcome: 'network' });
      waiting.clear();
      resolve();
    }),
  );
  const instance: Instance = {
    child,
    send(delivery) {
      if (child.exitCode !== null || child.signalCode !== null || !child.connected) {
        return Promise.resolve({ status: 0, outcome: 'network' });
      }
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        // The process can die between the check above and this write (EPIPE): that delivery
        // then gets no answer, as a dropped connection, instead of an uncaught error.
        child.send({ id, ...delivery }, (error) => {
          if (!error || !waiting.has(id)) return;
          waiting.delete(id);
          resolve({ status: 0, outcome: 'network' });
        });
      });
    },
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  child.on('message', (message) => {
    const { id, status, body } = message as { id?: number; status: number; body: string };
    if (id === undefined) return;
    waiting.get(id)?.(answerOf(status, body));
    waiting.delete(id);
  });
  // No clock of its own: an instance starts or exits, and on a busy machine PGlite's first start
  // in a new folder alone took more than the 15 s once allowed here. The test's timeout bounds a hang.
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the instance exited with ${code} before it was ready`)));
    child.once('message', (message) => {
      const { error } = message as { error?: { code?: string; message: string; details?: unknown } };
      if (error)
        reject(Object.assign(new Error(error.message), { code: error.code, details: error.details }));
      else resolve(instance);
    });
  });
}
