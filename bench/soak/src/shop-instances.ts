import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../examples/test-support/free-port.js';
import { type Child, startChild, stopChild, waitForOutput } from './processes.js';
import type { SharedTime } from './shared-time.js';

const LOOP_DELAY = fileURLToPath(new URL('./loop-delay-preload.ts', import.meta.url));
const TIME_SHIFT = fileURLToPath(new URL('./time-shift-preload.ts', import.meta.url));

export interface LoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** One shop process behind the proxy: its port stays the same across restarts. */
export interface ShopInstance {
  readonly index: number;
  readonly port: number;
  /** The environment it starts with (shopEnv), set before the first start. */
  env: Readonly<Record<string, string>>;
  /**
   * False while the process starts, true once the shop printed its banner (its app answers): the
   * proxy sends nothing to an instance still starting, as an orchestrator's readiness probe keeps
   * a load balancer from it (the shop listens before its app is attached: see the README).
   */
  ready: boolean;
  /** The running process, or undefined between a kill and its restart. */
  child: Child | undefined;
  /** The last event-loop delay the instance sent, cleared once read. */
  takeLoopDelay(): LoopDelay | undefined;
  /** VmRSS from /proc, in bytes; undefined when the process is not running. */
  rssBytes(): Promise<number | undefined>;
  start(): Promise<void>;
  kill(): void;
  stop(): Promise<void>;
  /** Restarts so far; the output of every earlier run, for a failure's explanation. */
  readonly starts: number;
}

/**
 * The shop in production configuration, as a partner deploys it: NODE_ENV=production,
 * PostgreSQL from DATABASE_URL, DCB_* for the standalone sandbox, the reconciler every minute (the
 * soak moves the sandbox's clock by days, so a run must reach it often), behind one proxy
 * (TRUST_PROXY=1, DCB_RETURN_URL on the proxy's address). LOG_LEVEL=warn: an info line per
 * request, kept in memory by the soak for an hour, would measure the log rather than the shop.
 */
export async function createShopInstance(
  index: number,
  appDir: string,
  env: Readonly<Record<string, string>>,
  time: SharedTime,
  logFile?: string,
): Promise<ShopInstance> {
  const port = await freePort();
  let loopDelay: LoopDelay | undefined;
  let starts = 0;
  const instance: ShopInstance = {
    index,
    port,
    env,
    ready: false,
    child: undefined,
    get starts() {
      return starts;
    },
    takeLoopDelay() {
      const taken = loopDelay;
      loopDelay = undefined;
      return taken;
    },
    async rssBytes() {
      const pid = instance.child?.pid;
      if (pid === undefined) return undefined;
      try {
        const status = await readFile(`/proc/${pid}/status`, 'utf8');
        const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
        return kib === undefined ? undefined : Number(kib) * 1024;
      } catch {
        return undefined;
      }
    },
    async start() {
      starts++;
      instance.ready = false;
      const child = startChild(
        `shop ${index}`,
        process.execPath,
        ['--import', 'tsx', '--import', TIME_SHIFT, '--import', LOOP_DELAY, 'src/main.ts'],
        {
          cwd: appDir,
          ipc: true,
          ...(logFile !== undefined ? { logFile } : {}),
          env: {
            ...instance.env,
            ...time.env(),
            PORT: String(port),
            HOST: '127.0.0.1',
            NODE_ENV: 'production',
          },
        },
      );
      child.process.on('message', (message: { type?: string } & LoopDelay) => {
        if (message.type === 'loop-delay') loopDelay = message;
      });
      instance.child = child;
      await waitForOutput(child, /Shop running at http/, 60_000);
      instance.ready = true;
      // The time may have moved while it started.
      time.tell(child);
    },
    kill() {
      // The proxy is not told: it finds the port refusing connections and retries on the next
      // instance, until the new process starts (then it waits for it to be ready).
      instance.child?.kill('SIGKILL');
      instance.child = undefined;
    },
    async stop() {
      instance.ready = false;
      const child = instance.child;
      instance.child = undefined;
      if (child) await stopChild(child);
    },
  };
  time.follow(() => instance.child);
  return instance;
}

/** The environment every instance shares. */
export function shopEnv(options: {
  databaseUrl: string;
  sandbox: {
    apiBaseUrl: string;
    checkoutBaseUrl: string;
    clientId: string;
    clientSecret: string;
    webhookSecret: string;
  };
  publicUrl: string;
  sessionSecret: string;
}): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        !entry[0].startsWith('DCB_') &&
        !entry[0].startsWith('npm_') &&
        entry[0] !== 'NODE_OPTIONS',
    ),
  );
  return {
    ...inherited,
    // The starter is run by plain node: the benches' tsconfig is not the app's.
    TSX_TSCONFIG_PATH: 'tsconfig.json',
    DATABASE_URL: options.databaseUrl,
    DCB_ENV: 'sandbox',
    DCB_API_BASE_URL: options.sandbox.apiBaseUrl,
    DCB_CHECKOUT_BASE_URL: options.sandbox.checkoutBaseUrl,
    DCB_CLIENT_ID: options.sandbox.clientId,
    DCB_CLIENT_SECRET: options.sandbox.clientSecret,
    DCB_WEBHOOK_SECRET: options.sandbox.webhookSecret,
    DCB_RETURN_URL: `${options.publicUrl}/return`,
    SESSION_SECRET: options.sessionSecret,
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
    RECONCILE_EVERY_MINUTES: '1',
  };
}
