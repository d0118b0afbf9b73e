/**
 * bench/client: what the client adds to a call, next to a bare fetch of the same endpoint.
 *
 *   (a) bare fetch   fetch + JSON.parse of GET /v1/payments/{uid}, bearer header set by hand
 *   (b) dcbkit       client.payments.retrieve(uid): cached token, per-attempt timeout, envelope
 *                    and Payment validation, retry bookkeeping
 *
 * Over a local server, one call at a time and then 32 at once; then both again with fetch
 * answered in-process, which leaves only the client's own work. Target: (b) keeps at least
 * 0.85 of (a)'s throughput over the local server.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@dcbkit/core';
import { pairedRatio, spread, verdict } from '@dcbkit-bench/shared';

const PAYMENT = JSON.stringify({
  success: true,
  data: {
    object: 'payment',
    paymentUid: 'pay_01JBENCH',
    mode: 'HOSTED',
    status: 'SUCCEEDED',
    checkoutUrl: 'https://checkout.sandbox.example/c/pay_01JBENCH',
    productUid: 'prod_premium',
    offerUid: 'off_premium_monthly',
    expiresAt: '2026-11-21T12:30:00Z',
    metadata: { userId: 'u_42' },
    orderId: 'ord_01JBENCH',
    subscriberUid: 'sbr_7f3a9c',
  },
});
const TOKEN = JSON.stringify({ access_token: 'tok_bench', token_type: 'bearer', expires_in: 3600 });

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const body = request.url === '/oauth2/token' ? TOKEN : PAYMENT;
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** Answers like the server, without a socket: what remains is the caller's own work. */
const inProcessFetch = (async (input: string | URL | Request) =>
  new Response(String(input).endsWith('/oauth2/token') ? TOKEN : PAYMENT, {
    status: 200,
    headers: { 'content-type': 'application/json' },
  })) as typeof fetch;

function candidates(fetchFunction: typeof fetch): AsyncCandidate[] {
  const client = createClient({
    environment: 'sandbox',
    baseUrl,
    clientId: 'svc_test_bench',
    clientSecret: 'bench-secret',
    fetch: fetchFunction,
  });
  return [
    {
      name: '(a) bare fetch',
      run: async () => {
        const response = await fetchFunction(`${baseUrl}/v1/payments/pay_01JBENCH`, {
          headers: { accept: 'application/json', authorization: 'Bearer tok_bench' },
        });
        return JSON.parse(await response.text());
      },
    },
    { name: '(b) dcbkit', run: () => client.payments.retrieve('pay_01JBENCH') },
  ];
}

interface AsyncCandidate {
  name: string;
  run: () => Promise<unknown>;
}

/**
 * Like bench/shared's measure, for async calls: `batch` calls in flight at once, every candidate in
 * each round in rotating order; every round's ns per call kept, for paired ratios.
 */
async function measureAsync(
  candidates: AsyncCandidate[],
  opts: { calls: number; batch: number; rounds: number },
): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  const runCalls = async (candidate: AsyncCandidate, calls: number) => {
    for (let done = 0; done < calls; done += opts.batch) {
      await Promise.all(Array.from({ length: Math.min(opts.batch, calls - done) }, () => candidate.run()));
    }
  };
  for (const candidate of candidates) await runCalls(candidate, Math.ceil(opts.calls / 4));
  for (let round = 0; round < opts.rounds; round++) {
    for (let k = 0; k < candidates.length; k++) {
      const candidate = candidates[(round + k) % candidates.length] as AsyncCandidate;
      const start = process.hrtime.bigint();
      await runCalls(candidate, opts.calls);
      samples.get(candidate.name)?.push(Number(process.hrtime.bigint() - start) / opts.calls);
    }
  }
  return samples;
}

const scenarios = [
  {
    label: 'local server, one call at a time',
    fetch: globalThis.fetch,
    batch: 1,
    calls: 1_000,
    target: 0.85,
  },
  {
    label: 'local server, 32 calls in flight',
    fetch: globalThis.fetch,
    batch: 32,
    calls: 4_000,
    target: 0.85,
  },
  { label: 'fetch answered in-process (the client alone)', fetch: inProcessFetch, batch: 1, calls: 5_000 },
];
const lines: string[] = [];
for (const { label, fetch: fetchFunction, batch, calls, target } of scenarios) {
  const results = await measureAsync(candidates(fetchFunction), { calls, batch, rounds: 9 });
  lines.push('', label);
  for (const [name, rounds] of results) {
    const { median, min, max } = spread(rounds);
    lines.push(
      `  ${name.padEnd(16)} ${(median / 1000).toFixed(1).padStart(8)} µs/call (${(min / 1000).toFixed(1)}–${(max / 1000).toFixed(1)}) ${Math.round(
        1e9 / median,
      )
        .toLocaleString('en')
        .padStart(8)} calls/s`,
    );
  }
  const bare = results.get('(a) bare fetch') as number[];
  const ours = results.get('(b) dcbkit') as number[];
  const share = pairedRatio(ours, bare);
  lines.push(`  overhead per call: ${((spread(ours).median - spread(bare).median) / 1000).toFixed(1)} µs`);
  lines.push(
    target === undefined
      ? `  (b)/(a) throughput share: ${share.median.toFixed(3)} (min ${share.min.toFixed(3)}, max ${share.max.toFixed(3)})`
      : `  ${verdict('(b)/(a) throughput share', share, target)}`,
  );
}
console.log(`bench/client  node ${process.version}`);
console.log(
  '  method: in process, unpinned, the local server in the same process; a warm-up of each candidate, then 9 rounds in rotating order; ratio = throughput share, paired per round, median (min, max)',
);
console.log(lines.join('\n'));
server.close();
server.closeAllConnections();
