/**
 * bench/handler: what the whole webhook handler costs next to verifying alone, and what the
 * memory ledger costs per remembered event.
 *
 *   (a) verifyWebhook alone, over the same signed bodies (unpadded, and 1 KiB as bench/webhook-verify)
 *   (b) the whole handler (verify, key, ledger claim, store lookup and atomic update, complete)
 *       with memoryStore and memoryLedger, every event new
 *   (c) memoryLedger holding 1,000,000 completed events: heap + array buffers per key
 *
 * Targets: b >= 0.5 a; c < 300 bytes per key. Run with node --expose-gc (the bench script does).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createWebhookHandler, eventKey, memoryLedger, memoryStore, verifyWebhook } from '@dcbkit/core';
import { verdict } from '@dcbkit-bench/shared';
import { offers, SECRET, type SignedRequest, signedEvents } from './events.js';

const EVENTS_PER_ROUND = 4_000;
const ROUNDS = 15;
const LEDGER_KEYS = 1_000_000;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('bench/handler needs node --expose-gc (run it with pnpm bench).');
  process.exit(1);
}

const signedAt = new Date();
const now = () => signedAt;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function throughput(padTo: number): Promise<string[]> {
  const handler = createWebhookHandler({
    secrets: SECRET,
    store: memoryStore(),
    ledger: memoryLedger({ max: (ROUNDS + 1) * EVENTS_PER_ROUND }),
    offers,
    now,
  });
  // Warm-up round, also checking that every event is really applied.
  for (const request of signedEvents(0, EVENTS_PER_ROUND, signedAt, padTo)) {
    const { status, body } = await handler(request);
    if (status !== 200 || !body.includes('"applied"')) throw new Error(`warm-up answered ${status} ${body}`);
  }
  const verifyNs: number[] = [];
  const handlerNs: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const requests: SignedRequest[] = signedEvents(
      round * EVENTS_PER_ROUND,
      EVENTS_PER_ROUND,
      signedAt,
      padTo,
    );
    const runVerify = () => {
      const start = process.hrtime.bigint();
      for (const { rawBody, headers } of requests) {
        verifyWebhook({ rawBody, signature: headers['service-signature'], secrets: SECRET, now: signedAt });
      }
      verifyNs.push(Number(process.hrtime.bigint() - start) / requests.length);
    };
    const runHandler = async () => {
      const start = process.hrtime.bigint();
      for (const request of requests) {
        const { status } = await handler(request);
        if (status !== 200) throw new Error(`handler answered ${status}`);
      }
      handlerNs.push(Number(process.hrtime.bigint() - start) / requests.length);
    };
    // Alternate which goes first, so that a burst of noise on a shared machine hits both.
    if (round % 2 === 0) {
      runVerify();
      await runHandler();
    } else {
      await runHandler();
      runVerify();
    }
  }
  const verifyMedian = median(verifyNs);
  const handlerMedian = median(handlerNs);
  const line = (name: string, ns: number) =>
    `  ${name.padEnd(26)} ${ns.toFixed(0).padStart(8)} ns/event ${Math.round(1e9 / ns)
      .toLocaleString('en')
      .padStart(10)} events/s`;
  const size = padTo > 0 ? `${padTo / 1024} KiB bodies` : 'unpadded bodies (about 0.4 KiB)';
  return [
    `throughput, ${size} (${ROUNDS} rounds of ${EVENTS_PER_ROUND.toLocaleString('en')} new events, median)`,
    line('(a) verifyWebhook alone', verifyMedian),
    line('(b) whole handler', handlerMedian),
    `  ${verdict('(b)/(a) whole handler vs verify alone', verifyMedian / handlerMedian, 0.5)}`,
  ];
}

async function ledgerMemory(): Promise<string[]> {
  const collect = gc as () => void;
  const used = () => {
    collect();
    collect();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const before = used();
  const ledger = memoryLedger({ max: LEDGER_KEYS });
  for (let i = 0; i < LEDGER_KEYS; i++) {
    const id = String(i).padStart(8, '0');
    const key = eventKey({
      event: 'payment.succeeded',
      paymentUid: `pay_01JBENCH${id}`,
      subscriptionUid: `sub_01JBENCH${id}`,
      orderId: `ord_01JBENCH${id}`,
      occurredAt: '2026-11-21T12:00:00.000Z',
    });
    if ((await ledger.claim(key)) !== 'new') throw new Error('a fresh key was not new');
    await ledger.complete(key);
  }
  const after = used();
  // Still holding the ledger when measuring, and still remembering the first key.
  const stillKnown = await ledger.claim(
    eventKey({
      event: 'payment.succeeded',
      paymentUid: 'pay_01JBENCH00000000',
      subscriptionUid: 'sub_01JBENCH00000000',
      orderId: 'ord_01JBENCH00000000',
      occurredAt: '2026-11-21T12:00:00.000Z',
    }),
  );
  if (stillKnown !== 'duplicate') throw new Error('the ledger forgot a key it should hold');
  const perKey = (after - before) / LEDGER_KEYS;
  return [
    `ledger memory (${LEDGER_KEYS.toLocaleString('en')} completed events; heap + array buffers after gc)`,
    `  total ${((after - before) / 1024 / 1024).toFixed(1)} MiB, ${perKey.toFixed(1)} bytes per key`,
    // verdict() only compares upwards; memory is better lower.
    `  ${perKey < 300 ? 'PASS' : 'MISS'}  ledger bytes per key: ${perKey.toFixed(1)} (target < 300)`,
  ];
}

const PARTS: Record<string, () => Promise<string[]>> = {
  small: () => throughput(0),
  '1kib': () => throughput(1024),
  ledger: ledgerMemory,
};

// Each part runs in a process of its own: one part's heap and compiled code must not bias the next.
const part = process.argv[2];
if (part === undefined) {
  console.log(`bench/handler  node ${process.version}  (ratio = throughput share)`);
  for (const name of Object.keys(PARTS)) {
    const output = execFileSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), name],
      {
        encoding: 'utf8',
      },
    );
    console.log(`\n${output.trimEnd()}`);
  }
} else {
  const run = PARTS[part];
  if (!run) throw new Error(`unknown part ${part}; one of ${Object.keys(PARTS).join(', ')}`);
  console.log((await run()).join('\n'));
}
