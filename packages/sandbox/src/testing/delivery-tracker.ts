import type { Sandbox } from '../start/start-sandbox.js';
import { DELIVERY_WINDOW_SECONDS, type WebhookDelivery } from '../webhooks/delivery-record.js';

// Bounds: a settle never moves the clock further than one delivery window (by then every event
// is delivered or dead-lettered) nor loops more than this many times.
const MAX_SETTLE_ROUNDS = 200;
const MAX_REPLAY_ROUNDS = 3;
// Between replay rounds: the Retry-After dcbkit's handler gives an event that overtook its payment.
const REPLAY_PAUSE_SECONDS = 60;

/**
 * The events of one run of the check (those of the sandbox's first application made since it
 * started), with the means to let their deliveries run their course on the sandbox clock. Keeps
 * every event it saw: the sandbox frees delivered ones after its retention, and the run spans more
 * than that.
 */
export class DeliveryTracker {
  private readonly before: ReadonlySet<string>;
  private readonly seen = new Map<string, WebhookDelivery>();

  constructor(private readonly sandbox: Sandbox) {
    this.before = new Set(sandbox.webhooks().map((delivery) => delivery.id));
  }

  /** The run's events the sandbox still holds. */
  private current(): WebhookDelivery[] {
    const clientId = this.sandbox.credentials.clientId;
    const mine = this.sandbox
      .webhooks()
      .filter((delivery) => delivery.clientId === clientId && !this.before.has(delivery.id));
    for (const delivery of mine) this.seen.set(delivery.id, delivery);
    return mine;
  }

  /** Every event of the run, oldest first. */
  all(): WebhookDelivery[] {
    this.current();
    return [...this.seen.values()];
  }

  /**
   * Posts what is due and moves the clock to each next attempt (held, delayed and retried events)
   * until none of the run's events is pending, within one delivery window.
   */
  async settle(): Promise<void> {
    await this.sandbox.deliverDue();
    let advanced = 0;
    for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
      const pending = this.current().filter((delivery) => delivery.status === 'PENDING');
      if (pending.length === 0) return;
      const now = this.sandbox.clock.now().getTime();
      const next = Math.min(...pending.map((delivery) => Date.parse(delivery.nextAttemptAt ?? '') || now));
      const seconds = Math.max(0, Math.ceil((next - now) / 1000));
      if (advanced + seconds > DELIVERY_WINDOW_SECONDS) return;
      if (seconds > 0) await this.sandbox.advanceClock(seconds);
      await this.sandbox.deliverDue();
      advanced += seconds;
    }
  }

  /** The run's dead-lettered events, oldest first. */
  deadLettered(): WebhookDelivery[] {
    return this.current().filter((delivery) => delivery.status === 'DEAD_LETTERED');
  }

  /**
   * Replays every dead-lettered event, as a partner does from the console, a few rounds a minute
   * apart for those the app still refuses.
   */
  async replayDeadLetters(): Promise<void> {
    for (let round = 0; round < MAX_REPLAY_ROUNDS; round++) {
      const dead = this.deadLettered();
      if (dead.length === 0) return;
      if (round > 0) await this.sandbox.advanceClock(REPLAY_PAUSE_SECONDS);
      for (const delivery of dead) await this.sandbox.replayWebhook(delivery.id);
      await this.settle();
    }
  }
}
