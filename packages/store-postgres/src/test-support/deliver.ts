import type { WebhookEvent } from '@dcbkit/core';
import { type SignedDelivery, signed } from './event-stream.js';

export interface Answer {
  status: number;
  /** The handler's outcome ('applied', 'duplicate'…) or error code; 'network' when no answer came. */
  outcome: string;
}

export function answerOf(status: number, body: string): Answer {
  let parsed: { outcome?: string; error?: string } = {};
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {}
  return { status, outcome: parsed.outcome ?? parsed.error ?? '' };
}

/** Something that takes a signed delivery and answers: an app instance. */
export interface Receiver {
  send(delivery: SignedDelivery): Promise<Answer>;
}

/** One delivery attempt of one event to one instance. */
export interface Delivery {
  /** The event's index in the stream. */
  event: number;
  to: Receiver;
}

/** Runs `work` over the items with at most `concurrency` at once, in order of start. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  });
  await Promise.all(lanes);
}

export interface RetryLoopResult {
  /** How many 'applied' answers each event got, by its index in the stream. */
  appliedCount: number[];
  /** Every answer, in the order received. */
  answers: Answer[];
  rounds: number;
}

/**
 * The service's side: make every delivery; resend each one not answered 2xx (409 in progress,
 * 503 not found yet, 5xx, no answer) in later rounds, to `retryTo` of it, until all are 2xx.
 * Bounded: fails after `maxRounds`. Adjacent deliveries are in flight together, so two copies of
 * an event placed side by side reach their instances at the same moment.
 */
export async function deliverUntilAcknowledged(options: {
  events: readonly WebhookEvent[];
  deliveries: readonly Delivery[];
  retryTo?: (delivery: Delivery) => Receiver;
  concurrency: number;
  maxRounds?: number;
  pauseMs?: number;
  onAnswer?: (answer: Answer, delivery: Delivery) => void;
}): Promise<RetryLoopResult> {
  const { events, concurrency, maxRounds = 60, pauseMs = 100, onAnswer } = options;
  const retryTo = options.retryTo ?? ((delivery) => delivery.to);
  // Signed once per event: the signature stays valid for the test's few seconds, as a retry's would.
  const signedEvents = events.map((event) => signed(event));
  const appliedCount = new Array<number>(events.length).fill(0);
  const answers: Answer[] = [];
  let pending: readonly Delivery[] = options.deliveries;
  for (let round = 1; round <= maxRounds; round++) {
    const failed: Delivery[] = [];
    await forEachConcurrently(pending, concurrency, async (delivery) => {
      const answer = await delivery.to.send(signedEvents[delivery.event] as SignedDelivery);
      answers.push(answer);
      onAnswer?.(answer, delivery);
      if (answer.outcome === 'applied')
        appliedCount[delivery.event] = (appliedCount[delivery.event] ?? 0) + 1;
      if (answer.status < 200 || answer.status > 299) failed.push(delivery);
    });
    if (failed.length === 0) return { appliedCount, answers, rounds: round };
    pending = failed.map((delivery) => ({ event: delivery.event, to: retryTo(delivery) }));
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  throw new Error(`deliveries still unacknowledged after ${maxRounds} rounds: ${pending.length}`);
}

/**
 * What at-least-once delivery to two instances behind a load balancer looks like: every event
 * once, to either instance, in shuffled order; `racingShare` of them also to the other instance
 * at the same moment; `lateShare` of them again, later, anywhere.
 */
export function racingDeliveries(
  eventCount: number,
  instances: readonly [Receiver, Receiver],
  random: () => number,
  { racingShare, lateShare }: { racingShare: number; lateShare: number },
): Delivery[] {
  const order = Array.from({ length: eventCount }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const deliveries: Delivery[] = [];
  for (const event of order) {
    const side = random() < 0.5 ? 0 : 1;
    deliveries.push({ event, to: instances[side] as Receiver });
    if (random() < racingShare) deliveries.push({ event, to: instances[1 - side] as Receiver });
  }
  // Late copies, inserted at random later positions.
  for (let event = 0; event < eventCount; event++) {
    if (random() >= lateShare) continue;
    const at = Math.floor(random() * (deliveries.length + 1));
    deliveries.splice(at, 0, { event, to: instances[random() < 0.5 ? 0 : 1] as Receiver });
  }
  return deliveries;
}
