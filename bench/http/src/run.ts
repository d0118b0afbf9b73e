/**
 * bench/http: server CPU time per request of the dcbkit webhook route in node:http, Express 4 and
 * 5, Koa 2 and 3, against three routes of the same framework (see bench/README.md):
 *
 *   bare             reads the body with data events, as dcbkit does, and answers dcbkit's bytes
 *   floor            bare + HMAC-SHA256 with a cached key + constant-time compare + tolerance + JSON.parse
 *   minimal          floor + a Set of events seen + a Map store: a receiver written by hand
 *   dcbkit new       the adapter over createWebhookHandler (memoryStore, memoryLedger), every event new
 *   dcbkit duplicate the same server setup, replaying 1,000 events it has already applied
 *
 * Each route is its own server process, pinned to core 0; the load generator (wrk, or autocannon
 * when wrk is absent) is its own process, pinned to core 1. Per framework: a warm-up run of each
 * route, then rounds in which every route runs once, in rotating order, on a freshly signed pool
 * (signatures must be within 300 s). Ratios are taken round by round, then median (min–max).
 * Targets, by server CPU time per request: dcbkit new >= 0.9 of minimal and >= 0.85 of floor, in
 * each framework.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatCount, formatSpread, planPinning, type Spread, spread, verdict } from '@dcbkit-bench/shared';
import { FRAMEWORKS, type Framework, type Variant } from './apps.js';
import { BODY_BYTES, idRange, writePool } from './events.js';
import { type LoadResult, pickLoadGenerator, runLoad } from './load.js';
import { killStartedServers, type Server, serverStats, startServer, stopServer } from './servers.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = 1;
const WARMUP_SECONDS = 2;
const CONNECTIONS = 32;
const WARMUP_POOL = 30_000;
const DUPLICATE_POOL = 1_000;
// By server CPU time per request (issue 29): the share of the route's CPU that dcbkit leaves to the reference.
const TARGETS = [
  { reference: 'minimal', target: 0.9 },
  { reference: 'floor', target: 0.85 },
] as const;

interface Case {
  name: string;
  variant: Variant;
  duplicates: boolean;
}
const CASES: Case[] = [
  { name: 'bare', variant: 'bare', duplicates: false },
  { name: 'floor', variant: 'floor', duplicates: false },
  { name: 'minimal', variant: 'minimal', duplicates: false },
  { name: 'dcbkit new', variant: 'dcbkit', duplicates: false },
  { name: 'dcbkit duplicate', variant: 'dcbkit', duplicates: true },
];

const pinning = planPinning();
const generator = pickLoadGenerator();
const dir = await mkdtemp(join(tmpdir(), 'dcbkit-bench-http-'));
const warnings: string[] = [];

const rate = (result: LoadResult) => result.requests / (result.durationUs / 1e6);

/** A run whose answers are not what its case must get would measure something else: say so. */
function check(framework: Framework, testCase: Case, result: LoadResult): void {
  const expected = testCase.duplicates ? result.duplicate : result.applied;
  if (expected !== result.requests || result.exhausted || result.socketErrors) {
    warnings.push(
      `${framework} ${testCase.name}: ${result.requests} answers, ${result.applied} applied, ${result.duplicate} duplicate, ${result.other} other, ${result.socketErrors} socket errors${result.exhausted ? ', pool exhausted' : ''}`,
    );
  }
}

interface FrameworkResult {
  framework: Framework;
  /** Requests per second of each route, per round. */
  rates: Map<string, number[]>;
  /** Server CPU µs per request of each route, per round. */
  cpu: Map<string, number[]>;
}

async function benchFramework(framework: Framework): Promise<FrameworkResult> {
  const servers = new Map<string, Server>();
  for (const testCase of CASES)
    servers.set(testCase.name, await startServer(pinning, framework, testCase.variant));
  const serverOf = (testCase: Case) => servers.get(testCase.name) as Server;
  const newPool = join(dir, `${framework}-new.txt`);
  const duplicatePool = join(dir, `${framework}-dup.txt`);
  const duplicateIds = () => idRange('dup_', 0, DUPLICATE_POOL);

  // Warm-up: each route runs once; the duplicate route's first pass applies the events it will replay.
  await writePool(newPool, idRange('warm_', 0, WARMUP_POOL));
  await writePool(duplicatePool, duplicateIds());
  let fastest = 0;
  for (const testCase of CASES) {
    const result = await runLoad(generator, pinning, {
      port: serverOf(testCase).port,
      poolPath: testCase.duplicates ? duplicatePool : newPool,
      cycle: true,
      seconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
    });
    fastest = Math.max(fastest, rate(result));
  }
  // Three times the fastest warm-up rate, at least 20,000: every request of a round must be a new
  // event, even when a round runs much faster than the warm-up did on a busy machine.
  const poolSize = Math.max(Math.ceil(fastest * SECONDS * 3), 20_000);

  const rates = new Map<string, number[]>(CASES.map((c) => [c.name, []]));
  const cpu = new Map<string, number[]>(CASES.map((c) => [c.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    await writePool(newPool, idRange(`r${round}_`, 0, poolSize));
    await writePool(duplicatePool, duplicateIds());
    for (let k = 0; k < CASES.length; k++) {
      const testCase = CASES[(round + k) % CASES.length] as Case;
      const server = serverOf(testCase);
      const before = await serverStats(server);
      const result = await runLoad(generator, pinning, {
        port: server.port,
        poolPath: testCase.duplicates ? duplicatePool : newPool,
        cycle: testCase.duplicates,
        seconds: SECONDS,
        connections: CONNECTIONS,
      });
      const after = await serverStats(server);
      check(framework, testCase, result);
      rates.get(testCase.name)?.push(rate(result));
      cpu
        .get(testCase.name)
        ?.push((after.cpuMicros - before.cpuMicros) / Math.max(after.served - before.served, 1));
    }
  }
  for (const server of servers.values()) await stopServer(server);
  return { framework, rates, cpu };
}

/** Per-round throughput share of route `a` in route `b`'s, from requests per second. */
function paired(result: FrameworkResult, a: string, b: string): Spread {
  const bRates = result.rates.get(b) as number[];
  return spread((result.rates.get(a) as number[]).map((value, round) => value / (bRates[round] as number)));
}

/**
 * The same share from server CPU time per request (b's CPU / a's CPU, per round). Time the
 * server spends waiting for its core does not count here, so on a busy machine this is the
 * steadier estimate of what a quiet one would give; the verdict stays on requests per second.
 */
function pairedCpu(result: FrameworkResult, a: string, b: string): Spread {
  const bCpu = result.cpu.get(b) as number[];
  return spread((result.cpu.get(a) as number[]).map((value, round) => (bCpu[round] as number) / value));
}

function report(result: FrameworkResult): string[] {
  const lines = [`\n  ${result.framework}`];
  for (const testCase of CASES) {
    const s = spread(result.rates.get(testCase.name) as number[]);
    const c = spread(result.cpu.get(testCase.name) as number[]);
    lines.push(
      `    ${testCase.name.padEnd(17)} ${c.median.toFixed(1).padStart(6)} µs server CPU/request (${c.min.toFixed(1)}–${c.max.toFixed(1)})  ${formatCount(s.median, 8)} req/s (${formatCount(s.min)}–${formatCount(s.max)})`,
    );
  }
  for (const { reference, target } of TARGETS) {
    lines.push(
      `    ${verdict(`dcbkit new / ${reference}, by CPU/request`, pairedCpu(result, 'dcbkit new', reference), target)}`,
    );
  }
  const pair = (a: string, b: string) =>
    `${formatSpread(pairedCpu(result, a, b)).padEnd(22)}   by req/s ${formatSpread(paired(result, a, b))}`;
  lines.push('          by CPU/request:');
  for (const [a, b] of [
    ['dcbkit new', 'minimal'],
    ['dcbkit new', 'floor'],
    ['dcbkit new', 'bare'],
    ['dcbkit duplicate', 'minimal'],
    ['dcbkit duplicate', 'floor'],
    ['dcbkit duplicate', 'bare'],
    ['minimal', 'floor'],
    ['floor', 'bare'],
  ] as const) {
    lines.push(`          ${`${a} / ${b}:`.padEnd(27)} ${pair(a, b)}`);
  }
  return lines;
}

const only = process.argv[2];
const frameworks = only ? FRAMEWORKS.filter((f) => f === only) : [...FRAMEWORKS];
console.log(
  `bench/http  node ${process.version}  ${BODY_BYTES} B bodies (0.4 KiB), ${CONNECTIONS} connections`,
);
console.log(
  `  method: server CPU time per request (process.cpuUsage() in the server, asked before and after each run); ${pinning.describe}; load generator ${generator === 'wrk' ? 'wrk (1 thread)' : 'autocannon (wrk not installed), in its own process'}; per framework a ${WARMUP_SECONDS} s warm-up of each route, then ${ROUNDS} rounds of ${SECONDS} s per route in rotating order, each round on freshly signed distinct events; ratios paired per round, median (min–max)`,
);
if (pinning.cores < 2) {
  console.log(
    "  ONE CORE: this machine has one core, so the load generator runs on the server's core; CPU/request still counts the server alone, but req/s ratios understate every route heavier than bare.",
  );
}
const summary: string[] = [];
try {
  for (const framework of frameworks) {
    const result = await benchFramework(framework);
    console.log(report(result).join('\n'));
    const valid = !warnings.some((warning) => warning.startsWith(`${framework} `));
    const cells = TARGETS.map(({ reference, target }) => {
      const ratio = pairedCpu(result, 'dcbkit new', reference);
      return `${formatSpread(ratio)} ${ratio.median >= target ? 'PASS' : 'MISS'}`.padEnd(28);
    });
    summary.push(
      `  ${framework.padEnd(10)} ${cells.join(' ')} ${formatSpread(pairedCpu(result, 'dcbkit new', 'bare')).padEnd(22)} ${formatSpread(pairedCpu(result, 'dcbkit duplicate', 'minimal')).padEnd(22)} ${valid ? '' : 'INVALID (see WARNING)'}`.trimEnd(),
    );
  }
} finally {
  killStartedServers();
  await rm(dir, { recursive: true, force: true });
}
console.log(
  `\n  summary: dcbkit route / reference route, by server CPU per request (targets, new events: ${TARGETS.map(({ reference, target }) => `>= ${target} of ${reference}`).join(', ')})`,
);
console.log(
  `  ${'framework'.padEnd(10)} ${TARGETS.map(({ reference }) => `new / ${reference}`.padEnd(28)).join(' ')} ${'new / bare'.padEnd(22)} duplicates / minimal`,
);
console.log(summary.join('\n'));
if (warnings.length > 0) {
  console.log('\n  WARNING: these runs did not get the answers their case must get:');
  for (const warning of warnings) console.log(`    ${warning}`);
}
