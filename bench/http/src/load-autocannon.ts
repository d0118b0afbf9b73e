/**
 * The fallback load generator, when wrk is not installed: autocannon in its own process (load.ts
 * pins it), sending the same pool as wrk-pool.lua and printing the same BENCH line.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`load-autocannon: ${name} is not set`);
  return value;
};

const lines = readFileSync(env('BENCH_POOL'), 'utf8').split('\n');
const pool: Array<{ body: string; signature: string }> = [];
for (let i = 0; i + 1 < lines.length; i += 2) {
  pool.push({ body: lines[i] as string, signature: lines[i + 1] as string });
}
const cycle = env('BENCH_CYCLE') === '1';
let next = 0;
let exhausted = 0;
const counts = { applied: 0, duplicate: 0, other: 0 };

const result = await autocannon({
  url: `http://127.0.0.1:${env('BENCH_PORT')}/webhooks`,
  method: 'POST',
  connections: Number(env('BENCH_CONNECTIONS')),
  duration: Number(env('BENCH_SECONDS')),
  requests: [
    {
      setupRequest: (request) => {
        if (next === pool.length) {
          next = 0;
          if (!cycle) exhausted = 1;
        }
        const { body, signature } = pool[next++] as { body: string; signature: string };
        return {
          ...request,
          headers: { 'content-type': 'application/json', 'service-signature': signature },
          body,
        };
      },
      onResponse: (status, body) => {
        if (status === 200 && body.includes('"applied"')) counts.applied++;
        else if (status === 200 && body.includes('"duplicate"')) counts.duplicate++;
        else counts.other++;
      },
    },
  ],
});
const figures = {
  requests: result.requests.total,
  durationUs: Math.round(result.duration * 1e6),
  ...counts,
  exhausted,
  socketErrors: result.errors + result.timeouts,
};
process.stdout.write(`BENCH ${JSON.stringify(figures)}\n`);
