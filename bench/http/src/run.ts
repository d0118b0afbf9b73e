/**
 * bench/http: requests per second of the Express and Koa webhook endpoints against a bare route
 * of the same framework that only reads the body and answers 200. autocannon on loopback, each
 * run bounded in time; rounds alternate bare and dcbkit and the median is kept.
 * Target: dcbkit >= 0.85 of bare for each framework.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { signedEvents } from './events.js';

const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 32;
const EVENTS = signedEvents(120_000);

async function startServer(
  framework: string,
  variant: string,
): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [framework, variant], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${chunk.toString().trim()}/webhooks`, child };
}

async function load(url: string, offset: number): Promise<{ rps: number; non2xx: number; sent: number }> {
  let next = offset;
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (request) => {
          const event = EVENTS[next++ % EVENTS.length];
          return {
            ...request,
            headers: { 'content-type': 'application/json', 'service-signature': event?.signature ?? '' },
            body: event?.body ?? '',
          };
        },
      },
    ],
  });
  return { rps: result.requests.average, non2xx: result.non2xx, sent: next - offset };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

console.log(
  `bench/http  node ${process.version}  ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each`,
);
let failed = false;
for (const framework of ['express', 'koa']) {
  const bare = await startServer(framework, 'bare');
  const dcbkit = await startServer(framework, 'dcbkit');
  const rates: Record<'bare' | 'dcbkit', number[]> = { bare: [], dcbkit: [] };
  let offset = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, server] of [
      ['bare', bare],
      ['dcbkit', dcbkit],
    ] as const) {
      const run = await load(server.url, offset);
      offset += run.sent;
      if (run.non2xx > 0) {
        failed = true;
        console.log(`  ${framework} ${name}: ${run.non2xx} answers were not 2xx`);
      }
      rates[name].push(run.rps);
    }
  }
  bare.child.kill('SIGTERM');
  dcbkit.child.kill('SIGTERM');
  const ratio = median(rates.dcbkit) / median(rates.bare);
  console.log(
    `  ${framework.padEnd(8)} bare ${Math.round(median(rates.bare)).toLocaleString('en').padStart(7)} req/s   dcbkit webhook ${Math.round(median(rates.dcbkit)).toLocaleString('en').padStart(7)} req/s   ratio ${ratio.toFixed(3)}  ${ratio >= 0.85 ? 'PASS' : 'MISS'} (target >= 0.85)`,
  );
}
if (failed) process.exitCode = 1;
