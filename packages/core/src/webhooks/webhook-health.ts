import { metrics } from '@opentelemetry/api';

/**
 * How a delivery ended:
 * - `accepted`: answered 200 and processed (applied, an unknown event name, an unknown offer);
 * - `duplicate`: answered 200, already processed;
 * - `refused`: answered 4xx, the request itself was wrong (a bad signature, a bad body, too large, too slow);
 * - `deferred`: the service is asked to retry, nothing is wrong (the same event in progress, an
 *   event that overtook its payment);
 * - `failed`: answered 5xx because the store, the ledger, a listener or the mounting failed.
 */
export type DeliveryOutcome = 'accepted' | 'duplicate' | 'refused' | 'deferred' | 'failed';

/** The webhook receiver's counts since the process started (`kit.webhookHealth()`). */
export interface WebhookHealth {
  /** When counting started. */
  readonly since: string;
  readonly accepted: number;
  readonly duplicate: number;
  readonly deferred: number;
  /** Refused deliveries by code (`signature_mismatch`, `body_not_json`, `body_too_large`…). */
  readonly refused: Readonly<Record<string, number>>;
  /** Failed deliveries by code (`processing_failed`, `processing_timeout`, `body_not_raw`…). */
  readonly failed: Readonly<Record<string, number>>;
  readonly lastAcceptedAt: string | null;
  readonly lastRefusedAt: string | null;
  readonly lastFailedAt: string | null;
}

export interface WebhookHealthRecorder {
  record(outcome: DeliveryOutcome, code?: string): void;
  snapshot(): WebhookHealth;
}

const METER_NAME = '@dcbkit/core';

// The attributes of a delivery without a code, built once rather than per delivery.
const OUTCOME_ONLY: Readonly<Record<DeliveryOutcome, Readonly<{ 'dcbkit.outcome': DeliveryOutcome }>>> = {
  accepted: { 'dcbkit.outcome': 'accepted' },
  duplicate: { 'dcbkit.outcome': 'duplicate' },
  refused: { 'dcbkit.outcome': 'refused' },
  deferred: { 'dcbkit.outcome': 'deferred' },
  failed: { 'dcbkit.outcome': 'failed' },
};

/**
 * Counts deliveries by outcome, for `kit.webhookHealth()` and as OpenTelemetry metrics through
 * `@opentelemetry/api`: the counter `dcbkit.webhook.deliveries` (attributes `dcbkit.outcome`,
 * `dcbkit.code`) and the gauge `dcbkit.webhook.last_accepted_age` (seconds since the last accepted
 * delivery). Without an SDK registered by the app, the API's meter is a no-op.
 */
export function createWebhookHealth(now?: () => Date): WebhookHealthRecorder {
  // Milliseconds, not a Date per accepted delivery: the snapshot, asked rarely, builds the strings.
  const clock = now === undefined ? Date.now : () => now().getTime();
  const since = new Date(clock()).toISOString();
  const counts = { accepted: 0, duplicate: 0, deferred: 0 };
  const refused: Record<string, number> = {};
  const failed: Record<string, number> = {};
  let lastAcceptedAt: number | null = null;
  let lastRefusedAt: number | null = null;
  let lastFailedAt: number | null = null;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

  const meter = metrics.getMeter(METER_NAME);
  const deliveries = meter.createCounter('dcbkit.webhook.deliveries', {
    description: 'Webhook deliveries answered, by outcome and code',
  });
  meter
    .createObservableGauge('dcbkit.webhook.last_accepted_age', {
      description: 'Seconds since the last accepted webhook delivery',
      unit: 's',
    })
    .addCallback((result) => {
      if (lastAcceptedAt !== null) result.observe((clock() - lastAcceptedAt) / 1000);
    });

  return {
    record(outcome, code) {
      deliveries.add(
        1,
        code === undefined ? OUTCOME_ONLY[outcome] : { 'dcbkit.outcome': outcome, 'dcbkit.code': code },
      );
      switch (outcome) {
        case 'accepted':
          counts.accepted++;
          lastAcceptedAt = clock();
          return;
        case 'duplicate':
          counts.duplicate++;
          return;
        case 'deferred':
          counts.deferred++;
          return;
        case 'refused':
          refused[code ?? 'unknown'] = (refused[code ?? 'unknown'] ?? 0) + 1;
          lastRefusedAt = clock();
          return;
        case 'failed':
          failed[code ?? 'unknown'] = (failed[code ?? 'unknown'] ?? 0) + 1;
          lastFailedAt = clock();
          return;
      }
    },
    snapshot() {
      return {
        since,
        ...counts,
        refused: { ...refused },
        failed: { ...failed },
        lastAcceptedAt: iso(lastAcceptedAt),
        lastRefusedAt: iso(lastRefusedAt),
        lastFailedAt: iso(lastFailedAt),
      };
    },
  };
}
