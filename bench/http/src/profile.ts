/**
 * Where the dcbkit route's CPU goes, beside the minimal receiver's: `pnpm run profile-route [framework]`
 * (default node:http) runs both servers under `node --cpu-prof`, pinned as bench/http pins them,
 * under the same load of new events, then prints each one's self time per request by function
 * and the functions that make the difference. A profile names functions, not modules: dcbkit's
 * built chunks are grouped under "dcbkit:". The sampling profiler adds its own cost to both
 * sides, so read the shares, not the totals, against bench/http's figures.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPinning } from '@dcbkit-bench/shared';
import { FRAMEWORKS, type Framework, type Variant } from './apps.js';
import { idRange, writePool } from './events.js';
import { pickLoadGenerator, runLoad } from './load.js';
import { killStartedServers, serverStats, startServer, stopServer } from './servers.js';

const framework = (process.argv[2] ?? 'node:http') as Framework;
if (!FRAMEWORKS.includes(framework)) throw new Error(`usage: profile.ts [${FRAMEWORKS.join('|')}]`);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const POOL = 600_000;
const SHOWN = 25;

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per request (µs) by function, idle left out; dcbkit's own functions prefixed. */
function selfTimes(profile: CpuProfile, requests: number): Map<string, number> {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const times = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = frames.get(id);
    if (frame === undefined || frame.functionName === '(idle)') return;
    const file = frame.url.split('/').at(-1) ?? '';
    const ours = frame.url.includes('/packages/') && frame.url.includes('/dist/');
    const name = `${ours ? 'dcbkit: ' : ''}${frame.functionName || '(anonymous)'}${ours ? '' : ` (${file || 'native'})`}`;
    times.set(name, (times.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / requests);
  });
  return times;
}

async function profileOf(variant: Variant, dir: string): Promise<Map<string, number>> {
  const profiles = join(dir, variant);
  const pinning = planPinning();
  const server = await startServer(pinning, framework, variant, ['--cpu-prof', `--cpu-prof-dir=${profiles}`]);
  try {
    const poolPath = join(dir, `${variant}.pool`);
    await writePool(poolPath, idRange(`${variant}_`, 0, POOL));
    const result = await runLoad(pickLoadGenerator(), pinning, {
      port: server.port,
      poolPath,
      cycle: false,
      seconds: SECONDS,
      connections: 32,
    });
    if (result.exhausted || result.other)
      throw new Error(`${variant}: the pool ran out or answers were wrong`);
    const { served } = await serverStats(server);
    await stopServer(server);
    // The main thread's profile is the largest: workers (if any) profile little.
    const files = await readdir(profiles);
    const sized = await Promise.all(
      files.map(async (f) => ({ f, text: await readFile(join(profiles, f), 'utf8') })),
    );
    const main = sized.sort((a, b) => b.text.length - a.text.length)[0];
    if (main === undefined) throw new Error(`${variant}: no profile was written`);
    return selfTimes(JSON.parse(main.text) as CpuProfile, served);
  } catch (error) {
    killStartedServers();
    throw error;
  }
}

const total = (times: Map<string, number>) => [...times.values()].reduce((sum, t) => sum + t, 0);
const row = (micros: number, name: string) => `  ${micros.toFixed(2).padStart(6)} µs  ${name}`;

const dir = await mkdtemp(join(tmpdir(), 'dcbkit-bench-profile-'));
try {
  const dcbkit = await profileOf('dcbkit', dir);
  const minimal = await profileOf('minimal', dir);
  console.log(
    `bench/http profile  ${framework}, new events, ${SECONDS} s each, self time per request (busy time only)`,
  );
  for (const [label, times] of [
    ['dcbkit', dcbkit],
    ['minimal', minimal],
  ] as const) {
    console.log(`\n${label}: ${total(times).toFixed(2)} µs per request`);
    for (const [name, t] of [...times].sort((a, b) => b[1] - a[1]).slice(0, SHOWN)) console.log(row(t, name));
  }
  const names = new Set([...dcbkit.keys(), ...minimal.keys()]);
  const difference = [...names].map(
    (name) => [name, (dcbkit.get(name) ?? 0) - (minimal.get(name) ?? 0)] as const,
  );
  console.log(
    `\ndcbkit - minimal: ${(total(dcbkit) - total(minimal)).toFixed(2)} µs per request; the largest differences`,
  );
  for (const [name, t] of difference.sort((a, b) => b[1] - a[1]).slice(0, SHOWN)) console.log(row(t, name));
} finally {
  await rm(dir, { recursive: true, force: true });
}
