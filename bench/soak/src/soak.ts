import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import { createSoakDatabase } from './database.js';
import { type Explained, explainServerErrors, type FaultWindow } from './explain.js';
import { type FaultPlan, planFaults, runFaults } from './faults.js';
import { ownLineOf } from './lines.js';
import { createRandom } from './prng.js';
import { killAllChildren, stopChild } from './processes.js';
import { startProxy } from './proxy.js';
import { type Sample, startSampler } from './sampler.js';
import { startSandboxProcess, writeSoakConfig } from './sandbox-process.js';
import { readServiceRecords } from './service-records.js';
import { settleDeliveries } from './settle.js';
import { SharedTime } from './shared-time.js';
import { accountIdOf, prepareShopApp } from './shop-app.js';
import { createShopInstance, type ShopInstance, shopEnv } from './shop-instances.js';
import { Subscriber, type SubscriberRecord } from './subscriber.js';
import { type ServerError, TrafficLog } from './traffic.js';
import { judge, type Verdict } from './verdict.js';

export interface SoakOptions {
  minutes: number;
  seed: number;
  subscribers: number;
  instances: number;
  /** Think time between a subscriber's actions, ms. */
  thinkMs: readonly [number, number];
  /** The PostgreSQL server (its database is not used: the soak makes its own). */
  databaseUrl: string;
  log: (line: string) => void;
  /** Where each instance's and the sandbox's output is written (appended); none when undefined. */
  logDir?: string;
  /** Leaves the soak's database in place at the end, to read what the shop kept (the report names it). */
  keepDatabase?: boolean;
  /** Overrides the fault schedule (tests squeeze it into half a minute). */
  plan?: Partial<FaultPlan>;
  /** How often the sampler reads rates, latencies and memory; default 10 s (a short run needs more). */
  sampleEveryMs?: number;
}

export interface SoakResult {
  options: Omit<SoakOptions, 'log'>;
  plan: FaultPlan;
  verdict: Verdict;
  serverErrors: Explained;
  /** Events the service still owed the shop after settling (0 when everything was delivered). */
  undeliveredEvents: number;
  deliveries: {
    events: number;
    attempts: number;
    attempts5xx: number;
    attemptsNoAnswer: number;
    replays: number;
  };
  faults: FaultWindow[];
  /** Requests the proxy answered after more than 20 s, the first 100. */
  slowRequests: ServerError[];
  restartsAt: number[];
  samples: Sample[];
  requests: number;
  routes: Record<string, { p50: number; p99: number; count: number }>;
  subscribers: SubscriberRecord[];
  wallSeconds: number;
}

/**
 * The partner's production, for `minutes`: the standalone sandbox (chaos on), `instances` shop
 * processes on one PostgreSQL database of the soak's own, a round-robin proxy, `subscribers`
 * clients, and the faults of `planFaults`; then deliveries settled and the verdict taken from the
 * sandbox's records. Every child process is killed at the end, whatever happened.
 */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { log } = options;
  const durationMs = Math.round(options.minutes * 60_000);
  const plan = { ...planFaults(durationMs), ...options.plan };
  const random = createRandom(options.seed);
  const work = mkdtempSync(join(tmpdir(), 'dcbkit-soak-'));
  const app = prepareShopApp(options.subscribers);
  const database = await createSoakDatabase(options.databaseUrl, `${options.seed}_${process.pid}`);
  const instances: ShopInstance[] = [];
  const wallStart = Date.now();
  try {
    const configPath = join(work, 'sandbox-config.json');
    writeSoakConfig(configPath, options.seed);
    // The proxy's port must be known before the sandbox (its webhook URL) and the shops (their
    // return URL); the instances' ports before the proxy: each instance gets its port up front.
    const traffic = new TrafficLog(Date.now());
    const time = new SharedTime();
    for (let index = 0; index < options.instances; index++) {
      instances.push(
        await createShopInstance(
          index,
          app.dir,
          {},
          time,
          options.logDir && join(options.logDir, `shop-${index}.log`),
        ),
      );
    }
    const proxy = await startProxy(instances, traffic);
    const sandbox = await startSandboxProcess({
      configPath,
      webhookUrl: `${proxy.url}/webhooks/dcb`,
      time,
      ...(options.logDir !== undefined ? { logFile: join(options.logDir, 'sandbox.log') } : {}),
    });
    const env = shopEnv({
      databaseUrl: database.url,
      sandbox,
      publicUrl: proxy.url,
      sessionSecret: randomBytes(32).toString('base64url'),
    });
    for (const instance of instances) instance.env = env;
    // One at a time: the first migrates the database, the others find it done.
    for (const instance of instances) await instance.start();
    log(
      `${instances.length} shops behind ${proxy.url}, sandbox at ${sandbox.apiBaseUrl}, database ${database.name}`,
    );

    const startedAt = Date.now();
    traffic.restart(startedAt);
    const sampler = startSampler({
      startedAt,
      traffic,
      instances,
      database,
      ...(options.sampleEveryMs !== undefined ? { everyMs: options.sampleEveryMs } : {}),
    });
    const killed = instances[0];
    if (killed === undefined) throw new Error('at least one instance');
    const faults = runFaults({
      plan,
      startedAt,
      durationMs,
      random,
      killed,
      database,
      sandbox,
      proxy,
      time,
      log,
    });
    const checkout = createCheckoutDriver(sandbox.apiBaseUrl);
    const sharedPairs = Math.floor(options.subscribers * 0.05);
    const subscribers = Array.from(
      { length: options.subscribers },
      (_, index) =>
        new Subscriber(
          accountIdOf(index),
          ownLineOf(index, sharedPairs),
          createRandom(options.seed * 7919 + index),
          proxy.url,
          checkout,
        ),
    );
    const deadline = startedAt + durationMs;
    let stopped = false;
    await Promise.all(
      subscribers.map((subscriber) => subscriber.live(deadline, options.thinkMs, () => stopped)),
    );
    stopped = true;
    faults.stop();
    await faults.done;
    // A kill's restart may still be under way: the verdict needs every instance up.
    for (const instance of instances) if (instance.child === undefined) await instance.start();
    log('load over: settling deliveries');
    const undeliveredEvents = await settleDeliveries(sandbox, time);
    await sampler.stop();
    const records = await readServiceRecords(sandbox.control, sandbox.clientId);
    const verdict = await judge(
      records,
      subscribers.map((s) => s.record),
      proxy.url,
    );
    const attempts = records.deliveries.flatMap((delivery) => delivery.attempts);
    const result: SoakResult = {
      options: { ...options, log: undefined } as Omit<SoakOptions, 'log'>,
      plan,
      verdict,
      serverErrors: explainServerErrors(
        traffic.serverErrors,
        faults.windows,
        time.moves.map((at) => at - startedAt),
      ),
      slowRequests: traffic.slow,
      undeliveredEvents,
      deliveries: {
        events: records.deliveries.length,
        attempts: attempts.length,
        attempts5xx: attempts.filter((a) => (a.httpStatus ?? 0) >= 500).length,
        attemptsNoAnswer: attempts.filter((a) => a.httpStatus === null).length,
        replays: attempts.filter((a) => a.replay).length,
      },
      faults: faults.windows,
      restartsAt: faults.restartsAt,
      samples: sampler.samples,
      requests: traffic.total,
      routes: traffic.overall(),
      subscribers: subscribers.map((s) => s.record),
      wallSeconds: Math.round((Date.now() - wallStart) / 1000),
    };
    await Promise.all(instances.map((instance) => instance.stop()));
    await stopChild(sandbox.child);
    await proxy.close();
    return result;
  } finally {
    killAllChildren();
    if (options.keepDatabase) log(`kept database ${database.name}`);
    else
      await database
        .drop()
        .catch((error: unknown) => log(`could not drop ${database.name}: ${(error as Error).message}`));
    app.remove();
    rmSync(work, { recursive: true, force: true });
  }
}
