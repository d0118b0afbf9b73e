import type { WebhookEvent } from '@dcbkit/core';
import type { SandboxClock } from '../clock/clock.js';
import type { Catalog } from '../config/catalog.js';
import type { ChaosSettings } from '../config/chaos-settings.js';
import { RetentionQueue } from '../retention/retention-queue.js';
import { newId } from '../shared/ids.js';
import { SandboxError } from '../shared/sandbox-error.js';
import { DeliveryChaos } from './delivery-chaos.js';
import { type DeliveryAttempt, isSettled, type WebhookDelivery } from './delivery-record.js';
import { HeldEvents } from './held-events.js';
import { type AttemptKind, postAttempt } from './post-attempt.js';
import { nextRetryAt, scheduledAttemptsOf } from './retry-plan.js';

export interface WebhookOutboxOptions {
  clock: SandboxClock;
  catalog: Catalog;
  /** Waits before attempts 2, 3, ... (at most four of them). */
  retryDelaysSeconds: readonly number[];
  timeoutMs: number;
  fetch: typeof fetch;
  /**
   * The time put in Service-Signature. Wall time by default, so a receiver's five-minute tolerance
   * holds even when the sandbox clock was moved forward.
   */
  signatureTime: () => Date;
  log: (line: string) => void;
}

/**
 * Records every event, posts it signed, retries with backoff, dead-letters, replays; and, when
 * chaos is on, duplicates, holds back, delays, signs stale and indents the way docs/sandbox.md
 * describes.
 */
export class WebhookOutbox {
  /** By id, in the order events happened. */
  private readonly deliveries = new Map<string, WebhookDelivery>();
  /** Delivered (or never posted) events, freed after the config's retention. */
  private readonly settled: RetentionQueue<string>;
  private readonly urls = new Map<string, string | null>();
  /** The next attempt (or the release of a held event) of each pending delivery. */
  private readonly retries = new Map<string, { cancel(): void }>();
  /** Events held back for reordering. */
  private readonly held = new HeldEvents();
  private readonly closing = new AbortController();
  private readonly chaos: DeliveryChaos;

  constructor(private readonly options: WebhookOutboxOptions) {
    for (const application of options.catalog.config.applications) {
      this.urls.set(application.clientId, application.webhook.url);
    }
    this.chaos = new DeliveryChaos(options.catalog.config.chaos);
    const seconds = options.catalog.config.retention.deliveredEventsSeconds;
    this.settled = new RetentionQueue(seconds === null ? null : seconds * 1000);
  }

  chaosSettings(): ChaosSettings {
    return this.chaos.settings();
  }

  /** Replaces the chaos settings from the next event on, restarting the dice from their seed. */
  setChaos(settings: ChaosSettings): void {
    this.chaos.configure(settings);
  }

  webhookUrl(clientId: string): string | null {
    return this.urls.get(clientId) ?? null;
  }

  /** Points an application's events at another URL (or at none) from the next attempt on. */
  setWebhookUrl(clientId: string, url: string | null): void {
    if (!this.options.catalog.application(clientId)) {
      throw new SandboxError('unknown_application', `Unknown application ${clientId}.`);
    }
    this.urls.set(clientId, url);
  }

  /** Records an event and schedules its first attempt now (later, or held back, under chaos). */
  emit(clientId: string, payload: WebhookEvent): WebhookDelivery {
    const indented = this.chaos.indentBody();
    const delivery: WebhookDelivery = {
      id: newId('evt'),
      clientId,
      event: payload.event,
      status: 'PENDING',
      payload,
      body: indented ? JSON.stringify(payload, null, 2) : JSON.stringify(payload),
      createdAt: this.options.clock.now().toISOString(),
      firstAttemptAt: null,
      nextAttemptAt: null,
      attempts: [],
      chaos: indented ? ['body indented'] : [],
    };
    this.track(delivery);
    const now = this.options.clock.now().getTime();
    this.settled.sweep(now, (id) => this.free(id));
    if (this.webhookUrl(clientId) === null) {
      this.settle(delivery, 'NOT_POSTED');
      this.options.log(`webhook ${delivery.event} ${delivery.id}: recorded, not posted (no webhook URL)`);
    } else if (this.chaos.holdForReorder()) {
      this.hold(delivery, now);
    } else {
      const delaySeconds = this.chaos.firstAttemptDelaySeconds();
      if (delaySeconds > 0) delivery.chaos.push(`first attempt delayed ${delaySeconds} s`);
      this.scheduleAttempt(delivery, new Date(now + delaySeconds * 1000));
    }
    return delivery;
  }

  /**
   * Takes back deliveries and webhook URLs from a state file: a PENDING event gets its next attempt
   * at the time it had (at once if that passed); one held back for reordering is simply sent then.
   */
  restore(deliveries: WebhookDelivery[], urls: Record<string, string | null>): void {
    for (const [clientId, url] of Object.entries(urls)) {
      if (this.options.catalog.application(clientId)) this.urls.set(clientId, url);
    }
    for (const delivery of deliveries) {
      this.track(delivery);
      if (isSettled(delivery.status)) {
        this.settled.add(delivery.id, this.options.clock.now().getTime());
      }
      if (delivery.status !== 'PENDING') continue;
      const at =
        delivery.nextAttemptAt === null ? this.options.clock.now() : new Date(delivery.nextAttemptAt);
      this.scheduleAttempt(delivery, at);
    }
  }

  /** Every application's webhook URL in force, for the state file. */
  webhookUrls(): Record<string, string | null> {
    return Object.fromEntries(this.urls);
  }

  list(): readonly WebhookDelivery[] {
    return [...this.deliveries.values()];
  }

  get(id: string): WebhookDelivery | undefined {
    return this.deliveries.get(id);
  }

  /**
   * Sends an event once more, now, whatever its status (as the partner console's replay does). A
   * success marks it DELIVERED; a failure leaves its status as it was. Undefined without a URL.
   */
  async replay(id: string): Promise<WebhookDelivery | undefined> {
    const delivery = this.get(id);
    if (!delivery) return undefined;
    const attempt = await this.attempt(delivery, 'replay');
    if (attempt?.ok) {
      this.retries.get(delivery.id)?.cancel();
      this.retries.delete(delivery.id);
      this.held.remove(delivery);
      this.settle(delivery, 'DELIVERED');
      delivery.nextAttemptAt = null;
    }
    return delivery;
  }

  /** Aborts attempts in flight; nothing is sent afterwards. */
  close(): void {
    this.closing.abort();
    for (const retry of this.retries.values()) retry.cancel();
    this.retries.clear();
    this.held.clear();
  }

  private track(delivery: WebhookDelivery): void {
    this.deliveries.set(delivery.id, delivery);
    this.held.track(delivery);
  }

  /** Nothing more will be sent unless asked: free it after the retention time. */
  private settle(delivery: WebhookDelivery, status: 'DELIVERED' | 'NOT_POSTED'): void {
    const wasSettled = isSettled(delivery.status);
    delivery.status = status;
    if (!wasSettled) this.settled.add(delivery.id, this.options.clock.now().getTime());
  }

  /** Forgets a settled event (a replay since may have left it pending or dead-lettered: then kept). */
  private free(id: string): void {
    const delivery = this.deliveries.get(id);
    if (delivery && isSettled(delivery.status) && !this.retries.has(id)) this.deliveries.delete(id);
  }

  /** Holds an event back until a later event of its application has been posted, or for reorderHoldSeconds. */
  private hold(delivery: WebhookDelivery, now: number): void {
    const releaseAt = new Date(now + this.chaos.settings().reorderHoldSeconds * 1000);
    delivery.chaos.push('held back until a later event was posted');
    delivery.nextAttemptAt = releaseAt.toISOString();
    this.held.add(delivery);
    const task = this.options.clock.schedule(releaseAt, `release held webhook ${delivery.id}`, () =>
      this.release([delivery]),
    );
    this.retries.set(delivery.id, task);
  }

  /** Sends held events now, in the order given. */
  private release(deliveries: WebhookDelivery[]): void {
    for (const delivery of deliveries) {
      this.held.remove(delivery);
      this.retries.get(delivery.id)?.cancel();
      this.scheduleAttempt(delivery, this.options.clock.now());
    }
  }

  private scheduleAttempt(delivery: WebhookDelivery, at: Date): void {
    delivery.nextAttemptAt = at.toISOString();
    const task = this.options.clock.schedule(at, `webhook ${delivery.event} ${delivery.id}`, () =>
      this.runScheduledAttempt(delivery),
    );
    this.retries.set(delivery.id, task);
  }

  private async runScheduledAttempt(delivery: WebhookDelivery): Promise<void> {
    this.retries.delete(delivery.id);
    delivery.nextAttemptAt = null;
    if (delivery.status !== 'PENDING') return;
    const attempt = await this.attempt(delivery, 'scheduled');
    if (this.closing.signal.aborted) return;
    if (!attempt) {
      // The URL was removed since the event happened.
      this.settle(delivery, 'NOT_POSTED');
      return;
    }
    // Once an event has been posted, the events held back before it go, newest first.
    this.release(this.held.overtakenBy(delivery));
    if (attempt.ok) {
      this.settle(delivery, 'DELIVERED');
      if (this.chaos.duplicate()) {
        this.options.clock.schedule(this.options.clock.now(), `duplicate webhook ${delivery.id}`, () =>
          this.attempt(delivery, 'duplicate'),
        );
      }
      return;
    }
    this.planRetry(delivery);
  }

  /** Schedules the next attempt after a failed one, or dead-letters the event (`retry-plan.ts`). */
  private planRetry(delivery: WebhookDelivery): void {
    const nextAt = nextRetryAt(delivery, this.options.retryDelaysSeconds, this.options.clock.now().getTime());
    if (nextAt !== null) {
      this.scheduleAttempt(delivery, nextAt);
      return;
    }
    delivery.status = 'DEAD_LETTERED';
    this.options.log(
      `webhook ${delivery.event} ${delivery.id}: dead-lettered after ${scheduledAttemptsOf(delivery)} attempts`,
    );
  }

  /** Posts the event now (`post-attempt.ts`); undefined without a URL or once closing. */
  private async attempt(delivery: WebhookDelivery, kind: AttemptKind): Promise<DeliveryAttempt | undefined> {
    const url = this.webhookUrl(delivery.clientId);
    const application = this.options.catalog.application(delivery.clientId);
    if (url === null || !application || this.closing.signal.aborted) return undefined;
    const at = this.options.clock.now();
    delivery.firstAttemptAt ??= at.toISOString();
    // Only a first attempt is ever stale, so the retry that follows the receiver's refusal is fresh.
    const stale = kind === 'scheduled' && delivery.attempts.length === 0 && this.chaos.signStale();
    const plan = {
      kind,
      url,
      secret: application.webhook.secret,
      stale,
      at,
      signatureTime: this.options.signatureTime(),
    };
    return postAttempt(delivery, plan, { ...this.options, closing: this.closing.signal });
  }
}
