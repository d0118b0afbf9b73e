import type { WebhookDelivery } from './delivery-record.js';

/**
 * The events delivery chaos holds back for reordering, and the order every event happened in, to
 * tell which held events a posted one overtook.
 */
export class HeldEvents {
  private readonly sequence = new WeakMap<WebhookDelivery, number>();
  private nextSequence = 0;
  /** Oldest first. */
  private held: WebhookDelivery[] = [];

  /** Numbers an event in the order events happened. */
  track(delivery: WebhookDelivery): void {
    this.sequence.set(delivery, this.nextSequence++);
  }

  add(delivery: WebhookDelivery): void {
    this.held.push(delivery);
  }

  remove(delivery: WebhookDelivery): void {
    this.held = this.held.filter((held) => held !== delivery);
  }

  /** The held events of the posted one's application that happened before it, newest first. */
  overtakenBy(posted: WebhookDelivery): WebhookDelivery[] {
    const position = this.sequence.get(posted) ?? 0;
    return this.held
      .filter((held) => held.clientId === posted.clientId && (this.sequence.get(held) ?? 0) < position)
      .reverse();
  }

  clear(): void {
    this.held = [];
  }
}
