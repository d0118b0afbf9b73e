import type { WebhookEvent } from '@dcbkit/core';
import { SIGNATURE_HEADER, signWebhook } from '@dcbkit/core/webhooks';
import type { SandboxClock } from '../clock/clock.js';
import type { Catalog } from '../config/catalog.js';
import type { ChaosSettings } from '../config/chaos-settings.js';
import { RetentionQueue } from '../retention/retention-queue.js';
import { newId } from '../shared/ids.js';
import { SandboxError } from '../shared/sandbox-error.js';
import { DeliveryChaos, STALE_SIGNATURE_AGE_SECONDS } from './delivery-chaos.js';

/** The spec: up to five attempts within 48 hours of the first, then dead-lettered. */
export const MAX_DELIVERY_ATTEMPTS = 5;
export const DELIVERY_WINDOW_SECONDS = 48 * 3600;
const RESPONSE_BODY_LIMIT = 2048;

/**
 * - `PENDING`: an attempt is scheduled.
 * - `DELIVERED`: an attempt was answered 2xx.
 * - `DEAD_LETTERED`: attempts ran out; only a replay sends it again.
 * - `NOT_POSTED`: the application had no webhook URL when the event happened.
 */
export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'DEAD_LETTERED' | 'NOT_POSTED';

/** What delivery chaos did to an attempt: a stale signature, or an extra copy of a delivered event. */
export type AttemptChaos = 'stale-signature' | 'duplicate';

/** One POST of an event to the webhook URL and how it went. */
export interface DeliveryAttempt {
  /** 1-based; replays and duplicates continue the count. */
  number: number;
  replay: boolean;
  chaos: AttemptChaos | null;
  /** Sandbox time of the attempt. */
  at: string;
  url: string;
  /** The Service-Signature header sent. */
  signature: string;
  /** The receiver's status, or null when it never answered. */
  httpStatus: number | null;
  /** Why the attempt failed without an answer (timeout, connection refused...). */
  error: string | null;
  /** The start of the receiver's answer. */
  responseBody: string | null;
  ok: boolean;
}

/** An event and the story of its delivery, as `GET /sandbox/webhooks` lists it. */
export interface WebhookDelivery {
  id: string;
  clientId: string;
  event: string;
  status: DeliveryStatus;
  /** The payload, and below it the exact bytes signed and sent. */
  payload: WebhookEvent;
  body: string;
  createdAt: string;
  firstAttemptAt: string | null;
  nextAttemptAt: string | null;
  attempts: DeliveryAttempt[];
  /** What delivery chaos did to the event as a whole (body indented, held back, delayed). */
  chaos: string[];
}

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

type AttemptKind = 'scheduled' | 'replay' | 'duplicate';

/**
 * Records every event, posts it signed, retries with backoff, dead-letters, replays; and, when
 * chaos is on, duplicates, holds back, delays, signs stale and indents the way docs/sandbox.md
 * describes.
 */
export class WebhookOutbox {
  /** By id, in the order events happened. */
  private readonly deliveries = new Map<string, WebhookDelivery>();
  /** Each delivery's place in that order, to tell which held events a posted one overtook. */
  private readonly sequence = new WeakMap<WebhookDelivery, number>();
  private nextSequence = 0;
  /** Delivered (or never posted) events, freed after the config's retention. */
  private readonly settled: RetentionQueue<string>;
  private readonly urls = new Map<string, string | null>();
  /** The next attempt (or the release of a held event) of each pending delivery. */
  private readonly retries = new Map<string, { cancel(): void }>();
  /** Events held back for reordering, oldest first. */
  private held: WebhookDelivery[] = [];
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
      if (delivery.status === 'DELIVERED' || delivery.status === 'NOT_POSTED') {
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
      this.held = this.held.filter((held) => held !== delivery);
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
    this.held = [];
  }

  private track(delivery: WebhookDelivery): void {
    this.deliveries.set(delivery.id, delivery);
    this.sequence.set(delivery, this.nextSequence++);
  }

  /** Nothing more will be sent unless asked: free it after the retention time. */
  private settle(delivery: WebhookDelivery, status: 'DELIVERED' | 'NOT_POSTED'): void {
    const wasSettled = delivery.status === 'DELIVERED' || delivery.status === 'NOT_POSTED';
    delivery.status = status;
    if (!wasSettled) this.settled.add(delivery.id, this.options.clock.now().getTime());
  }

  /** Forgets a settled event (a replay since may have left it pending or dead-lettered: then kept). */
  private free(id: string): void {
    const delivery = this.deliveries.get(id);
    if (
      delivery &&
      (delivery.status === 'DELIVERED' || delivery.status === 'NOT_POSTED') &&
      !this.retries.has(id)
    ) {
      this.deliveries.delete(id);
    }
  }

  /** Holds an event back until a later event of its application has been posted, or for reorderHoldSeconds. */
  private hold(delivery: WebhookDelivery, now: number): void {
    const releaseAt = new Date(now + this.chaos.settings().reorderHoldSeconds * 1000);
    delivery.chaos.push('held back until a later event was posted');
    delivery.nextAttemptAt = releaseAt.toISOString();
    this.held.push(delivery);
    const task = this.options.clock.schedule(releaseAt, `release held webhook ${delivery.id}`, () =>
      this.release([delivery]),
    );
    this.retries.set(delivery.id, task);
  }

  /** Sends held events now, in the order given. */
  private release(deliveries: WebhookDelivery[]): void {
    for (const delivery of deliveries) {
      this.held = this.held.filter((held) => held !== delivery);
      this.retries.get(delivery.id)?.cancel();
      this.scheduleAttempt(delivery, this.options.clock.now());
    }
  }

  /** Once an event has been posted, the events held back before it go, newest first. */
  private releaseOvertaken(posted: WebhookDelivery): void {
    const position = this.sequence.get(posted) ?? 0;
    const overtaken = this.held.filter(
      (held) => held.clientId === posted.clientId && (this.sequence.get(held) ?? 0) < position,
    );
    this.release(overtaken.reverse());
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
    this.releaseOvertaken(delivery);
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

  private planRetry(delivery: WebhookDelivery): void {
    const scheduledAttempts = delivery.attempts.filter(
      (attempt) => !attempt.replay && attempt.chaos !== 'duplicate',
    ).length;
    const delaySeconds = this.options.retryDelaysSeconds[scheduledAttempts - 1];
    const firstAttemptAt = Date.parse(delivery.firstAttemptAt ?? delivery.createdAt);
    const nextAt = this.options.clock.now().getTime() + (delaySeconds ?? 0) * 1000;
    if (
      delaySeconds === undefined ||
      scheduledAttempts >= MAX_DELIVERY_ATTEMPTS ||
      nextAt > firstAttemptAt + DELIVERY_WINDOW_SECONDS * 1000
    ) {
      delivery.status = 'DEAD_LETTERED';
      this.options.log(
        `webhook ${delivery.event} ${delivery.id}: dead-lettered after ${scheduledAttempts} attempts`,
      );
      return;
    }
    this.scheduleAttempt(delivery, new Date(nextAt));
  }

  private async attempt(delivery: WebhookDelivery, kind: AttemptKind): Promise<DeliveryAttempt | undefined> {
    const url = this.webhookUrl(delivery.clientId);
    const application = this.options.catalog.application(delivery.clientId);
    if (url === null || !application || this.closing.signal.aborted) return undefined;
    const at = this.options.clock.now().toISOString();
    delivery.firstAttemptAt ??= at;
    // Only a first attempt is ever stale, so the retry that follows the receiver's refusal is fresh.
    const stale = kind === 'scheduled' && delivery.attempts.length === 0 && this.chaos.signStale();
    const signedAt =
      this.options.signatureTime().getTime() - (stale ? STALE_SIGNATURE_AGE_SECONDS * 1000 : 0);
    const signature = signWebhook({
      payload: delivery.body,
      secret: application.webhook.secret,
      timestamp: new Date(signedAt),
    });
    const attempt: DeliveryAttempt = {
      number: delivery.attempts.length + 1,
      replay: kind === 'replay',
      chaos: stale ? 'stale-signature' : kind === 'duplicate' ? 'duplicate' : null,
      at,
      url,
      signature,
      httpStatus: null,
      error: null,
      responseBody: null,
      ok: false,
    };
    delivery.attempts.push(attempt);
    try {
      const response = await this.options.fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signature,
          'user-agent': 'dcbkit-sandbox',
        },
        body: delivery.body,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs), this.closing.signal]),
      });
      attempt.httpStatus = response.status;
      attempt.responseBody = (await response.text()).slice(0, RESPONSE_BODY_LIMIT);
      // Counted only once the whole answer arrived: a receiver that stalls mid-answer timed out.
      attempt.ok = response.status >= 200 && response.status < 300;
    } catch (error) {
      attempt.error = describeFailure(error, this.options.timeoutMs);
    }
    this.options.log(
      `webhook ${delivery.event} ${delivery.id} attempt ${attempt.number}${kind === 'scheduled' ? '' : ` (${kind})`}${stale ? ' (stale signature)' : ''}: ` +
        (attempt.httpStatus !== null ? `HTTP ${attempt.httpStatus}` : (attempt.error ?? 'failed')),
    );
    return attempt;
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  if (error instanceof Error && error.name === 'AbortError') return 'aborted: the sandbox is closing';
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error instanceof Error ? `${error.message}${cause}` : String(error);
}
