/**
 * bench/sandbox: does the sandbox hold up under a partner's load test?
 *
 * 1. Create cost with payments held: POST /v1/payments at 1,000 held against 100,000 held
 *    (the idempotency store, the clock's task queue and the payment maps must not scan all
 *    entries). Target: at 100,000 within 1.5x of the cost at 1,000 (median over rounds).
 * 2. One clock advance over 100,000 due tasks (every held payment's expiry). Target: a few
 *    seconds (<= 5 s).
 * 3. Retention: ended payments and settled events are freed after the configured time. Target:
 *    all 100,000 expired payments and 10,000 never-posted events freed, and the heap back down.
 * 4. Create rate under a steady load past 24 hours of sandbox time (steady-load.ts), when every
 *    create also forgets an idempotency key, against a sandbox in its first hours. Target: >= 0.9.
 *
 * Measures the built package (pnpm build) over loopback HTTP, as a load test would, with a
 * frozen clock so that only the bench moves time.
 */
import {
  createClock,
  defaultSandboxConfig,
  type Sandbox,
  type SandboxConfig,
  startSandbox,
} from '@dcbkit/sandbox';
import { collectGarbage, formatCount, formatMs, median, verdict } from './figures.js';
import { describeSteadyLoad, steadyLoad } from './steady-load.js';

const HELD_SMALL = 1_000;
const HELD_LARGE = 100_000;
const EVENTS = 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CREATES_PER_ROUND = 300;
const CONCURRENCY = 32;
const CREATE_TARGET = 1.5;
const ADVANCE_TARGET_MS = 5_000;
const RETENTION_SECONDS = 3600;
const EXPIRY_SECONDS = 1800;
const BUILD_BUDGET_MS = Number(process.env.BENCH_BUILD_BUDGET_MS ?? 240_000);
const STEADY_TARGET = 0.9;

let serial = 0;

async function token(sandbox: Sandbox): Promise<string> {
  const response = await fetch(`${sandbox.apiBaseUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: sandbox.credentials.clientId,
      client_secret: sandbox.credentials.clientSecret,
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The bench's sandbox configuration: no rate limit, payments expire, ended ones are freed. */
function benchConfig(defaults: SandboxConfig): SandboxConfig {
  const config = structuredClone(defaults);
  config.applications = config.applications.map((app) => ({
    ...app,
    rateLimit: { requests: 1_000_000_000, windowSeconds: 60 },
  }));
  config.payments.expirySeconds = EXPIRY_SECONDS;
  config.retention = { endedPaymentsSeconds: RETENTION_SECONDS, deliveredEventsSeconds: RETENTION_SECONDS };
  return config;
}

async function createOne(sandbox: Sandbox, bearer: string): Promise<string> {
  serial++;
  const response = await fetch(`${sandbox.apiBaseUrl}/v1/payments`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      'idempotency-key': `bench-create-${serial.toString().padStart(8, '0')}`,
    },
    body: JSON.stringify({
      mode: 'HOSTED',
      offerUid: 'offer_day_pass',
      returnUrl: 'https://partner.example/r',
    }),
  });
  const body = (await response.json()) as { data?: { paymentUid: string } };
  if (response.status !== 201 || !body.data) throw new Error(`create answered ${response.status}`);
  return body.data.paymentUid;
}

/** Creates `count` payments, CONCURRENCY at a time; returns their ids. */
async function createMany(sandbox: Sandbox, bearer: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count; done += CONCURRENCY) {
    const batch = Math.min(CONCURRENCY, count - done);
    ids.push(...(await Promise.all(Array.from({ length: batch }, () => createOne(sandbox, bearer)))));
  }
  return ids;
}

/** Milliseconds per create, measured over CREATES_PER_ROUND sequential creates. */
async function createCost(sandbox: Sandbox, bearer: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < CREATES_PER_ROUND; i++) await createOne(sandbox, bearer);
  return (performance.now() - started) / CREATES_PER_ROUND;
}

async function heapMb(): Promise<number> {
  collectGarbage();
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function main(): Promise<void> {
  console.log(`bench/sandbox  node ${process.version}`);
  console.log(
    `method: loopback HTTP against the built sandbox, frozen clock; create cost = median over ${ROUNDS} rounds of ${CREATES_PER_ROUND} sequential creates; fill ${CONCURRENCY} in flight`,
  );
  const config = benchConfig(defaultSandboxConfig());
  const clock = createClock({ start: '2030-01-01T00:00:00Z', frozen: true });
  const sandbox = await startSandbox({ port: 0, config, clock });
  try {
    const bearer = await token(sandbox);
    const buildStarted = performance.now();

    // 1. Create cost at 1,000 and at 100,000 held.
    await createMany(sandbox, bearer, HELD_SMALL);
    await createCost(sandbox, bearer); // warm-up
    const small: number[] = [];
    for (let round = 0; round < ROUNDS; round++) small.push(await createCost(sandbox, bearer));
    let held = HELD_SMALL + (ROUNDS + 1) * CREATES_PER_ROUND;
    while (held < HELD_LARGE && performance.now() - buildStarted < BUILD_BUDGET_MS) {
      const chunk = Math.min(5_000, HELD_LARGE - held);
      await createMany(sandbox, bearer, chunk);
      held += chunk;
    }
    const built = held >= HELD_LARGE;
    const large: number[] = [];
    for (let round = 0; round < ROUNDS; round++) large.push(await createCost(sandbox, bearer));
    held += ROUNDS * CREATES_PER_ROUND;
    const ratio = median(large) / median(small);
    console.log(
      `create at ${formatCount(HELD_SMALL)} held: ${formatMs(median(small))}  at ${formatCount(held)} held: ${formatMs(median(large))}  ratio ${ratio.toFixed(2)} (target <= ${CREATE_TARGET})  ${verdict(built && ratio <= CREATE_TARGET)}${built ? '' : `  (building stopped at ${formatCount(held)} after ${formatMs(BUILD_BUDGET_MS)})`}`,
    );

    // 2. One advance over every held payment's expiry.
    const due = clock.pending().length;
    const advanceStarted = performance.now();
    await sandbox.advanceClock(EXPIRY_SECONDS + 1);
    const advanceMs = performance.now() - advanceStarted;
    console.log(
      `advance over ${formatCount(due)} due tasks: ${formatMs(advanceMs)} (target <= ${formatMs(ADVANCE_TARGET_MS)})  ${verdict(due >= HELD_LARGE && advanceMs <= ADVANCE_TARGET_MS)}`,
    );

    // 3. Retention: events first (abandoned checkouts send payment.failed, recorded NOT_POSTED).
    const abandoned = await createMany(sandbox, bearer, EVENTS);
    for (let done = 0; done < abandoned.length; done += CONCURRENCY) {
      await Promise.all(
        abandoned
          .slice(done, done + CONCURRENCY)
          .map((uid) =>
            fetch(`${sandbox.checkoutBaseUrl}/c/${uid}/abandon`, { method: 'POST', redirect: 'manual' }).then(
              (r) => r.arrayBuffer(),
            ),
          ),
      );
    }
    const paymentsBefore = await countPayments(sandbox);
    const eventsBefore = sandbox.webhooks().length;
    const heapBefore = await heapMb();
    await sandbox.advanceClock(RETENTION_SECONDS + 1);
    // Freeing runs as new work arrives: one more create, one more event.
    const last = await createOne(sandbox, await token(sandbox));
    await fetch(`${sandbox.checkoutBaseUrl}/c/${last}/abandon`, { method: 'POST', redirect: 'manual' });
    const paymentsAfter = await countPayments(sandbox);
    const eventsAfter = sandbox.webhooks().length;
    const heapAfter = await heapMb();
    const freed = paymentsAfter <= 1 && eventsAfter <= 1;
    console.log(
      `retention ${RETENTION_SECONDS} s: payments held ${formatCount(paymentsBefore)} -> ${formatCount(paymentsAfter)}, events ${formatCount(eventsBefore)} -> ${formatCount(eventsAfter)}, heap ${heapBefore.toFixed(1)} MB -> ${heapAfter.toFixed(1)} MB  ${verdict(freed && heapAfter < heapBefore)}`,
    );
  } finally {
    await sandbox.close();
  }

  // 4. The create rate under a steady load, past the idempotency window.
  console.log(`steady load: ${describeSteadyLoad()}`);
  const steady = await steadyLoad({
    config: benchConfig(defaultSandboxConfig()),
    rounds: ROUNDS,
    concurrency: CONCURRENCY,
    createOne,
    token,
  });
  const wall = median(steady.ratios);
  console.log(
    `create rate in its first ${steady.freshHours.toFixed(1)} h: ${formatCount(Math.round(steady.freshPerSecond))}/s  past 24 h (at ${steady.steadyHours.toFixed(1)} h, ${formatCount(steady.steadyCreates)} creates): ${formatCount(Math.round(steady.steadyPerSecond))}/s  ratio ${wall.toFixed(2)} (rounds ${Math.min(...steady.ratios).toFixed(2)}–${Math.max(...steady.ratios).toFixed(2)}; CPU time ${median(steady.cpuRatios).toFixed(2)}) (target >= ${STEADY_TARGET})  ${verdict(wall >= STEADY_TARGET)}`,
  );
}

async function countPayments(sandbox: Sandbox): Promise<number> {
  const response = await fetch(`${sandbox.apiBaseUrl}/sandbox/payments`);
  return ((await response.json()) as { data: unknown[] }).data.length;
}

await main();
