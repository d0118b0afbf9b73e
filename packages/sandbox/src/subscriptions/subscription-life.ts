import type { WebhookEventName } from '@dcbkit/core';
import type { SandboxClock } from '../clock/clock.js';
import type { Catalog } from '../config/catalog.js';
import type { ChargeFields } from '../records/event-payloads.js';
import type { SubscriptionRecord } from '../records/subscription-record.js';
import type { SubscriptionTasks } from './subscription-tasks.js';

/**
 * What every step of a subscription's life works with. The engine makes it; `periodEnds` and
 * `charge` are in it, not imported, because the steps call each other in a circle: a period end
 * charges, a failed charge schedules a grace retry, which charges again.
 */
export interface SubscriptionLife {
  readonly clock: SandboxClock;
  readonly catalog: Catalog;
  readonly tasks: SubscriptionTasks;
  log(line: string): void;
  emit(subscription: SubscriptionRecord, event: WebhookEventName, charge?: ChargeFields): void;
  schedule(subscription: SubscriptionRecord, at: Date, what: string, run: () => void): void;
  /** The end of a trial or period (`renewal.ts`). */
  periodEnds(subscription: SubscriptionRecord): void;
  /** One charge of the line, the first renewal or a grace retry (`renewal.ts`). */
  charge(subscription: SubscriptionRecord, attempt: number): void;
}

/** Schedules the end of the current trial or period, or of access after a cancellation. */
export function scheduleEnd(life: SubscriptionLife, subscription: SubscriptionRecord, at: Date): void {
  life.schedule(subscription, at, 'period end', () => life.periodEnds(subscription));
}
