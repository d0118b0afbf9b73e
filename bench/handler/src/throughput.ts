/**
 * The whole in-process handler against verifyWebhook alone and against a minimal receiver written
 * by hand (verifyWebhook, a Set for de-duplication, a Map for the store: what issue 29 compares
 * with), for new events and for duplicates, at a steady state: the handler has already applied
 * 100,000 events (so memoryLedger, at its default max of 100,000, evicts as it goes, and
 * memoryStore holds tens of thousands of accounts). A second handler with `history: false` shows
 * what keeping the history of every decision costs. Rounds rotate the candidates over 2,000
 * events each; duplicates are the previous round's batch again, every one still in the ledger.
 */

import { memoryLedger, memoryStore } from '@dcbkit/core';
import { createWebhookHandler } from '@dcbkit/core/web';
import { verifyWebhook } from '@dcbkit/core/webhooks';
import { cpuClock, formatCount, pairedRatio, spread, verdict } from '@dcbkit-bench/shared';
import { offers, SECRET, type SignedRequest, signedEvents } from './events.js';
import type { PartResult } from './part.js';

// BENCH_PREFILL=2000 shows the same figures without the steady state, to see what store and ledger size cost.
const PREFILL = Number(process.env.BENCH_PREFILL ?? 100_000);
const EVENTS_PER_ROUND = 2_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const TARGET_NEW = 0.6;
const TARGET_DUPLICATE = 0.8;
const TARGET_NEW_MINIMAL = 0.85;

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
  const handlerWith = (history: boolean) =>
    createWebhookHandler({
      secrets: SECRET,
      store: memoryStore(),
      ledger: memoryLedger(),
      offers,
      now: () => signedAt,
      history,
    });
  const handler = handlerWith(true);
  const withoutHistory = handlerWith(false);
  /** Runs a batch through the handler; every answer must be `expected`, or the figure would lie. */
  const runHandler = async (
    requests: SignedRequest[],
    expected: string,
    run: typeof handler = handler,
  ): Promise<Timing> => {
    const clock = startClock();
    let wrong = 0;
    for (const request of requests) {
      if ((await run(request)).body !== expected) wrong++;
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
  // The minimal receiver: what a hand-written route does with no rules, history or ledger contract.
  const seen = new Set<string>();
  const held = new Map<string, unknown>();
  const runMinimal = async (requests: SignedRequest[]): Promise<Timing> => {
    const clock = startClock();
    for (const { rawBody, headers } of requests) {
      const event = verifyWebhook({
        rawBody,
        signature: headers['service-signature'],
        secrets: SECRET,
        now: signedAt,
      });
      const key = `${event.event}:${event.paymentUid ?? ''}:${event.orderId ?? ''}:${event.occurredAt}`;
      if (seen.has(key)) continue;
      seen.add(key);
      held.set(`${event.metadata?.accountKey ?? event.subscriptionUid}:${event.productUid}`, event);
      await undefined; // the handler is async: so is a route's await of its store
    }
    return clock.perOperation(requests.length);
  };

  // Steady state first (also the warm-up): 100,000 events applied, in batches as the rounds run.
  let next = 0;
  let previous: SignedRequest[] = [];
  while (next < PREFILL) {
    previous = signedEvents(next, EVENTS_PER_ROUND, signedAt, padTo);
    await runHandler(previous, APPLIED);
    await runHandler(previous, APPLIED, withoutHistory);
    await runMinimal(previous);
    if (next >= PREFILL - 5 * EVENTS_PER_ROUND) runVerify(previous); // verify's own warm-up
    next += EVENTS_PER_ROUND;
  }
  const bytes = previous.reduce((sum, r) => sum + r.rawBody.length, 0) / previous.length;

  const times = {
    verify: new Timings(),
    minimal: new Timings(),
    fresh: new Timings(),
    freshWithoutHistory: new Timings(),
    duplicate: new Timings(),
  };
  for (let round = 0; round < ROUNDS; round++) {
    const fresh = signedEvents(next, EVENTS_PER_ROUND, signedAt, padTo);
    next += EVENTS_PER_ROUND;
    const duplicates = previous; // applied a round ago (or by the prefill): all still in the ledger
    const candidates = [
      async () => times.verify.add(runVerify(fresh)),
      async () => times.minimal.add(await runMinimal(fresh)),
      async () => times.fresh.add(await runHandler(fresh, APPLIED)),
      async () => times.freshWithoutHistory.add(await runHandler(fresh, APPLIED, withoutHistory)),
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
  const share = (label: string, timings: Timings, target: number, reference = times.verify) =>
    `  ${verdict(label, pairedRatio(timings.wall, reference.wall), target)}; by CPU ${pairedRatio(timings.cpu, reference.cpu).median.toFixed(3)}`;
  const info = (label: string, timings: Timings, reference: Timings) =>
    `        ${label}: ${pairedRatio(timings.wall, reference.wall).median.toFixed(3)}; by CPU ${pairedRatio(timings.cpu, reference.cpu).median.toFixed(3)}`;
  const label = padTo >= 1024 ? '1 KiB' : '0.4 KiB';
  return {
    lines: [
      `throughput, ${label} bodies (mean ${Math.round(bytes)} B): ${PREFILL.toLocaleString('en')} events applied first, then ${ROUNDS} rounds of ${EVENTS_PER_ROUND.toLocaleString('en')} events per candidate`,
      line('(a) verifyWebhook alone', times.verify),
      line('(d) minimal receiver', times.minimal),
      line('(b) whole handler, new events', times.fresh),
      line('(e) (b) with history: false', times.freshWithoutHistory),
      line('(c) whole handler, duplicates', times.duplicate),
      share('(b)/(a) new events vs verify alone', times.fresh, TARGET_NEW),
      share('(b)/(d) new events vs the minimal receiver', times.fresh, TARGET_NEW_MINIMAL, times.minimal),
      share('(c)/(a) duplicates vs verify alone', times.duplicate, TARGET_DUPLICATE),
      info('(e)/(d) without history vs the minimal receiver', times.freshWithoutHistory, times.minimal),
      info("(b)/(e) the history's share: with it vs without", times.fresh, times.freshWithoutHistory),
    ],
  };
}
