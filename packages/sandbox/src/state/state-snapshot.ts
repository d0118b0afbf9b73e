import { z } from 'zod';
import type { EnvironmentName } from '../config/environment-config.js';
import type { IssuedSecret } from '../go-live/go-live-review.js';
import type { SmsMessage } from '../operator/sms-inbox.js';
import type { PaymentRecord } from '../records/payment-record.js';
import type { SubscriptionRecord } from '../records/subscription-record.js';
import type { WebhookDelivery } from '../webhooks/delivery-record.js';

/**
 * Bumped when the file's shape changes; a file of another version is refused, never half-read.
 * 2: issued client secrets (as hashes) instead of approved client IDs; subscriptions lost `resumeTo`.
 */
export const STATE_FILE_VERSION = 2;

/** One environment's state, as the file holds it (dates as ISO strings). */
export interface EnvironmentState {
  /** The client secrets each live application holds, as hashes: a production one issued at approval. */
  issued: IssuedSecret[];
  webhookUrls: Record<string, string | null>;
  payments: PaymentRecord[];
  /** One-time items owned (CAT-109), kept even once their payments were freed. */
  owned: string[];
  subscriptions: SubscriptionRecord[];
  webhooks: WebhookDelivery[];
}

/** Everything the sandbox keeps across restarts. Tokens, idempotency keys and open consent steps are not kept. */
export interface SandboxState {
  /** Wall time of the save, to carry a real-time clock's offset over the stop. */
  savedAt: Date;
  /** Sandbox time at the save. */
  clockNow: Date;
  sms: SmsMessage[];
  environments: Record<EnvironmentName, EnvironmentState>;
}

const iso = z.iso.datetime();
const environmentStateSchema = z.strictObject({
  issued: z.array(z.strictObject({ clientId: z.string(), secretSha256: z.string().regex(/^[0-9a-f]{64}$/) })),
  webhookUrls: z.record(z.string(), z.string().nullable()),
  owned: z.array(z.string()),
  payments: z.array(
    z.looseObject({
      paymentUid: z.string(),
      clientId: z.string(),
      status: z.string(),
      createdAt: iso,
      expiresAt: iso,
    }),
  ),
  subscriptions: z.array(
    z.looseObject({
      subscriptionUid: z.string(),
      payment: z.string(),
      createdAt: iso,
      currentPeriodStart: iso,
      currentPeriodEnd: iso,
    }),
  ),
  webhooks: z.array(z.looseObject({ id: z.string(), clientId: z.string(), status: z.string() })),
});
export const stateFileSchema = z.strictObject({
  version: z.literal(STATE_FILE_VERSION),
  savedAt: iso,
  clockNow: iso,
  sms: z.array(z.looseObject({ id: z.string(), paymentUid: z.string() })),
  environments: z.strictObject({ sandbox: environmentStateSchema, production: environmentStateSchema }),
});

/** The state as JSON text: dates become ISO strings, a subscription names its payment by paymentUid. */
export function serializeState(state: SandboxState): string {
  const environments = Object.fromEntries(
    Object.entries(state.environments).map(([name, env]) => [
      name,
      {
        ...env,
        subscriptions: env.subscriptions.map((subscription) => ({
          ...subscription,
          payment: subscription.payment.paymentUid,
        })),
      },
    ]),
  );
  return `${JSON.stringify({ version: STATE_FILE_VERSION, ...state, environments })}\n`;
}

const date = (value: unknown): Date => new Date(value as string);
const dateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : date(value);

/** The records of a checked state file, with dates and links between payment and subscription restored. */
export function reviveState(file: z.output<typeof stateFileSchema>): SandboxState {
  const revive = (env: z.output<typeof environmentStateSchema>): EnvironmentState => {
    const payments = env.payments.map(
      (record) =>
        ({
          ...record,
          createdAt: date(record.createdAt),
          expiresAt: date(record.expiresAt),
        }) as unknown as PaymentRecord,
    );
    const byUid = new Map(payments.map((payment) => [payment.paymentUid, payment]));
    const subscriptions = env.subscriptions.map((record) => {
      const payment = byUid.get(record.payment);
      if (!payment)
        throw new TypeError(`subscription ${record.subscriptionUid} names unknown payment ${record.payment}`);
      const raw = record as Record<string, unknown>;
      const grace = raw.grace as { startedAt: string; failedRetries: number } | null;
      return {
        ...raw,
        payment,
        createdAt: date(raw.createdAt),
        currentPeriodStart: date(raw.currentPeriodStart),
        currentPeriodEnd: date(raw.currentPeriodEnd),
        trialEndsAt: dateOrNull(raw.trialEndsAt),
        cancelAt: dateOrNull(raw.cancelAt),
        endedAt: dateOrNull(raw.endedAt),
        grace: grace ? { ...grace, startedAt: date(grace.startedAt) } : null,
      } as unknown as SubscriptionRecord;
    });
    return {
      issued: env.issued,
      webhookUrls: env.webhookUrls,
      owned: env.owned,
      payments,
      subscriptions,
      webhooks: env.webhooks as unknown as WebhookDelivery[],
    };
  };
  return {
    savedAt: date(file.savedAt),
    clockNow: date(file.clockNow),
    sms: file.sms as unknown as SmsMessage[],
    environments: {
      sandbox: revive(file.environments.sandbox),
      production: revive(file.environments.production),
    },
  };
}
