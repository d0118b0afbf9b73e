/**
 * bench/http: requests per second of the Express and Koa webhook endpoints against a bare route of
 * the same framework that only reads the body and answers 200. autocannon on loopback, each run
 * bounded in time; rounds rotate the routes and the median is kept. Every request carries a new
 * signed event, so the dcbkit route does the whole job: verify, de-duplicate, decide, store.
 * Target: dcbkit >= 0.85 of bare for each framework.
 *
 * A calibration route (the bare route plus a fixed 15 µs busy-wait, about a verification's cost)
 * shows how much this machine turns a few microseconds of server work into lost throughput: with
 * the load generator on the same two cores, every microsecond the server adds costs more than a
 * microsecond of wall time. Server CPU per request is printed for every route.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { signedEvents } from './events.js';

const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 32;
const ROUTES = ['bare', 'calibration', 'dcbkit'] as const;
type Route = (typeof ROUTES)[number];
const EVENTS = signedEvents(150_000);

interface Server {
  url: string;
  child: ChildProcess;
}

async function startServer(framework: string, route: Route): Promise<Server> {
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [framework, route], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${chunk.toString().trim()}/webhooks`, child };
}

async function stopServer(server: Server): Promise<number> {
  server.child.send('report');
  const [report] = (await once(server.child, 'message')) as [{ cpuMicrosPerRequest: number }];
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
  return report.cpuMicrosPerRequest;
}

let next = 0;
async function load(url: string): Promise<{ rps: number; non2xx: number }> {
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
  return { rps: result.requests.average, non2xx: result.non2xx };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const perSecond = (value: number) => Math.round(value).toLocaleString('en').padStart(7);

console.log(
  `bench/http  node ${process.version}  ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per route`,
);
let failed = false;
for (const framework of ['express', 'koa']) {
  const servers = Object.fromEntries(
    await Promise.all(ROUTES.map(async (route) => [route, await startServer(framework, route)] as const)),
  ) as Record<Route, Server>;
  const rates: Record<Route, number[]> = { bare: [], calibration: [], dcbkit: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < ROUTES.length; k++) {
      const route = ROUTES[(round + k) % ROUTES.length] as Route;
      const run = await load(servers[route].url);
      if (run.non2xx > 0) {
        failed = true;
        console.log(`  ${framework} ${route}: ${run.non2xx} answers were not 2xx`);
      }
      rates[route].push(run.rps);
    }
  }
  const cpu = {} as Record<Route, number>;
  for (const route of ROUTES) cpu[route] = await stopServer(servers[route]);
  const bare = median(rates.bare);
  console.log(`\n  ${framework}`);
  for (const route of ROUTES) {
    const ratio = median(rates[route]) / bare;
    console.log(
      `    ${route.padEnd(12)} ${perSecond(median(rates[route]))} req/s  ${cpu[route].toFixed(1).padStart(6)} µs server CPU/request  ratio ${ratio.toFixed(3)}`,
    );
  }
  const ratio = median(rates.dcbkit) / bare;
  console.log(
    `    ${ratio >= 0.85 ? 'PASS' : 'MISS'}  dcbkit webhook / bare route: ${ratio.toFixed(3)} (target >= 0.85); it adds ${(cpu.dcbkit - cpu.bare).toFixed(1)} µs of server CPU per request, the 15 µs calibration adds ${(cpu.calibration - cpu.bare).toFixed(1)} µs`,
  );
}
if (failed) process.exitCode = 1;
