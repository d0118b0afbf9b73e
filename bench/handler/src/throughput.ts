/**
 * The whole in-process handler against verifyWebhook alone, for new events and for duplicates, at
 * a steady state: the handler has already applied 100,000 events (so memoryLedger, at its default
 * max of 100,000, evicts as it goes, and memoryStore holds tens of thousands of accounts).
 * Rounds rotate three candidates over 2,000 events each: verify alone, the handler on a new
 * batch, the handler on the previous round's batch again (duplicates, every one still in the ledger).
 */
import { createWebhookHandler, memoryLedger, memoryStore, verifyWebhook } from '@dcbkit/core';
import { cpuClock, formatCount, pairedRatio, spread, verdict } from '@dcbkit-bench/shared';
import { offers, SECRET, type SignedRequest, signedEvents } from './events.js';
import type { PartResult } from './part.js';

// BENCH_PREFILL=2000 shows the same figures without the steady state, to see what store and ledger size cost.
const PREFILL = Number(process.env.BENCH_PREFILL ?? 100_000);
const EVENTS_PER_ROUND = 2_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const TARGET_NEW = 0.6;
const TARGET_DUPLICATE = 0.8;

const APPLIED = JSON.stringify({ received: true, outcome: 'applied' });
const DUPLICATE = JSON.stringify({ received: true, outcome: 'duplicate' });

interface Timing {
  wall: number;
  cpu: number;
}

/** Wall and process CPU nanoseconds per operation, from one start. */
function startClock() {
  const cpu = cpuClock();
  const wall = process.hrtime.bigint();
  return {
    perOperation: (count: number): Timing => ({
      wall: Number(process.hrtime.bigint() - wall) / count,
      cpu: (cpuClock() - cpu) / count,
    }),
  };
}

/** Each round's timing of one candidate, in round order. */
class Timings {
  readonly wall: number[] = [];
  readonly cpu: number[] = [];
  add(timing: Timing): void {
    this.wall.push(timing.wall);
    this.cpu.push(timing.cpu);
  }
}

export async function throughput(padTo: number): Promise<PartResult> {
  const signedAt = new Date();
  const handler = createWebhookHandler({
    secrets: SECRET,
    store: memoryStore(),
    ledger: memoryLedger(),
    offers,
    now: () => signedAt,
  });
  /** Runs a batch through the handler; every answer must be `expected`, or the figure would lie. */
  const runHandler = async (requests: SignedRequest[], expected: string): Promise<Timing> => {
    const clock = startClock();
    let wrong = 0;
    for (const request of requests) {
      if ((await handler(request)).body !== expected) wrong++;
    }
    const timing = clock.perOperation(requests.length);
    if (wrong > 0) throw new Error(`${wrong} of ${requests.length} answers were not ${expected}`);
    return timing;
  };
  const runVerify = (requests: SignedRequest[]): Timing => {
    const clock = startClock();
    for (const { rawBody, headers } of requests) {
      verifyWebhook({ rawBody, signature: headers['service-signature'], secrets: SECRET, now: signedAt });
    }
    return clock.perOperation(requests.length);
  };

  // Steady state first (also the warm-up): 100,000 events applied, in batches as the rounds run.
  let next = 0;
  let previous: SignedRequest[] = [];
  while (next < PREFILL) {
    previous = signedEvents(next, EVENTS_PER_ROUND, signedAt, padTo);
    await runHandler(previous, APPLIED);
    if (next >= PREFILL - 5 * EVENTS_PER_ROUND) runVerify(previous); // verify's own warm-up
    next += EVENTS_PER_ROUND;
  }
  const bytes = previous.reduce((sum, r) => sum + r.rawBody.length, 0) / previous.length;

  const times = { verify: new Timings(), fresh: new Timings(), duplicate: new Timings() };
  for (let round = 0; round < ROUNDS; round++) {
    const fresh = signedEvents(next, EVENTS_PER_ROUND, signedAt, padTo);
    next += EVENTS_PER_ROUND;
    const duplicates = previous; // applied a round ago (or by the prefill): all still in the ledger
    const candidates = [
      async () => times.verify.add(runVerify(fresh)),
      async () => times.fresh.add(await runHandler(fresh, APPLIED)),
      async () => times.duplicate.add(await runHandler(duplicates, DUPLICATE)),
    ];
    for (let k = 0; k < candidates.length; k++)
      await (candidates[(round + k) % candidates.length] as () => Promise<unknown>)();
    previous = fresh;
  }

  const line = (name: string, timings: Timings) => {
    const s = spread(timings.wall);
    return `  ${name.padEnd(30)} ${formatCount(s.median, 7)} ns/event (${formatCount(s.min)}–${formatCount(s.max)}) ${formatCount(1e9 / s.median, 9)} events/s   CPU ${formatCount(spread(timings.cpu).median, 7)} ns/event`;
  };
  const share = (label: string, timings: Timings, target: number) =>
    `  ${verdict(label, pairedRatio(timings.wall, times.verify.wall), target)}; by CPU ${pairedRatio(timings.cpu, times.verify.cpu).median.toFixed(3)}`;
  const label = padTo >= 1024 ? '1 KiB' : '0.4 KiB';
  return {
    lines: [
      `throughput, ${label} bodies (mean ${Math.round(bytes)} B): ${PREFILL.toLocaleString('en')} events applied first, then ${ROUNDS} rounds of ${EVENTS_PER_ROUND.toLocaleString('en')} events per candidate`,
      line('(a) verifyWebhook alone', times.verify),
      line('(b) whole handler, new events', times.fresh),
      line('(c) whole handler, duplicates', times.duplicate),
      share('(b)/(a) new events vs verify alone', times.fresh, TARGET_NEW),
      share('(c)/(a) duplicates vs verify alone', times.duplicate, TARGET_DUPLICATE),
    ],
  };
}
