import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../examples/test-support/free-port.js';
import { type Child, startChild, waitForOutput } from './processes.js';
import type { SharedTime } from './shared-time.js';

const TIME_SHIFT = fileURLToPath(new URL('./time-shift-preload.ts', import.meta.url));
/** bench/soak, where tsx is installed: the preload is TypeScript. */
const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));

const require = createRequire(import.meta.url);

/** The standalone sandbox, as `npx dcbkit-sandbox` runs it, and what the shop needs to talk to it. */
export interface SandboxProcess {
  child: Child;
  apiBaseUrl: string;
  checkoutBaseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  /** Runs the sandbox's tasks that fell due (after the shared time moved): renewals, expiries, retries. */
  runDue(): Promise<unknown>;
  /** A control route (/sandbox/...), its `data`. */
  control<T>(path: string, init?: RequestInit): Promise<T>;
}

/**
 * The built-in demo config, changed only where a soak needs it: a rate limit above what a few
 * hundred subscribers ask for (the default 600 a minute is a laptop's), no retention (the verdict
 * reads every payment and event at the end, months of sandbox time later), and delivery chaos.
 */
export function writeSoakConfig(path: string, seed: number): void {
  const defaults = JSON.parse(readFileSync(require.resolve('@dcbkit/sandbox/default-config.json'), 'utf8'));
  const config = {
    ...defaults,
    applications: defaults.applications.map((application: Record<string, unknown>) => ({
      ...application,
      rateLimit: { requests: 1_000_000, windowSeconds: 60 },
    })),
    retention: { endedPaymentsSeconds: null, deliveredEventsSeconds: null },
    chaos: {
      seed,
      duplicateProbability: 0.2,
      reorderProbability: 0.1,
      reorderHoldSeconds: 60,
      delayProbability: 0.1,
      maxDelaySeconds: 30,
      staleSignatureProbability: 0.05,
      indentedBodyProbability: 0.2,
    },
  };
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
}

export async function startSandboxProcess(options: {
  configPath: string;
  webhookUrl: string;
  time: SharedTime;
  logFile?: string;
}): Promise<SandboxProcess> {
  const bin = join(dirname(require.resolve('@dcbkit/sandbox/package.json')), 'bin', 'dcbkit-sandbox.js');
  const port = await freePort();
  const child = startChild(
    'sandbox',
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      TIME_SHIFT,
      bin,
      '--port',
      String(port),
      '--production-port',
      '0',
      '--config',
      options.configPath,
      '--webhook-url',
      options.webhookUrl,
    ],
    {
      cwd: BENCH_DIR,
      ipc: true,
      env: { ...process.env, ...options.time.env() },
      ...(options.logFile !== undefined ? { logFile: options.logFile } : {}),
    },
  );
  options.time.follow(() => child);
  await waitForOutput(child, /Webhook URL\s+http\S+/, 30_000);
  const banner = child.output();
  const field = (label: string) => {
    const value = new RegExp(`${label}\\s+(\\S+)`).exec(banner)?.[1];
    if (value === undefined) throw new Error(`the sandbox's banner has no ${label}:\n${banner}`);
    return value;
  };
  const apiBaseUrl = field('API base URL');
  const control = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const answer = await fetch(`${apiBaseUrl}${path}`, init);
    if (!answer.ok) throw new Error(`sandbox ${path}: ${answer.status} ${await answer.text()}`);
    return ((await answer.json()) as { data: T }).data;
  };
  return {
    child,
    apiBaseUrl,
    checkoutBaseUrl: field('Checkout base URL'),
    clientId: field('Client ID'),
    clientSecret: field('Client secret'),
    webhookSecret: field('Webhook secret'),
    control,
    runDue: () =>
      control('/sandbox/clock/advance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: 0 }),
      }),
  };
}
