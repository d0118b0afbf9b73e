import { PAYMENT_STATUSES, SUBSCRIPTION_STATUSES } from '../schemas/statuses.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { type RawBody, rawBodyText } from './raw-body.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

// Hand-written rather than zod: it runs on every delivery (the zod parse was the handler's top
// self time), and it keeps verification free of zod, so `verifyWebhook` alone bundles small.
// It accepts exactly what `webhookEventSchema` / `paymentEventSchema` accept; a property test
// (parse-webhook-event.test.ts) holds the two together.

// RFC 3339 date-time with Z or an offset, seconds required, any fraction; calendar-checked days.
const ISO_TIMESTAMP = new RegExp(
  '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|' +
    '\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))' +
    'T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$',
);
const CURRENCY = /^[A-Z]{3}$/;
const PAYMENT_STATUS_SET: ReadonlySet<unknown> = new Set(PAYMENT_STATUSES);
const SUBSCRIPTION_STATUS_SET: ReadonlySet<unknown> = new Set(SUBSCRIPTION_STATUSES);

const ID_FIELDS = ['paymentUid', 'orderId', 'productUid', 'offerUid', 'subscriberUid', 'subscriptionUid'];
const PAYMENT_REQUIRED = ['paymentUid', 'productUid', 'offerUid'];

type Json = Record<string, unknown>;

/** Parses and validates a webhook body. Throws WebhookVerificationError (`body_not_json`, `event_invalid`). */
export function parseWebhookEvent(rawBody: RawBody): WebhookEvent {
  let json: unknown;
  try {
    json = JSON.parse(rawBodyText(rawBody));
  } catch (cause) {
    throw new WebhookVerificationError('body_not_json', 'The webhook body is not valid JSON.', { cause });
  }
  const problem = eventProblem(json);
  if (problem !== undefined) {
    throw new WebhookVerificationError(
      'event_invalid',
      `The webhook body is not a valid event (${problem}).`,
    );
  }
  return json as WebhookEvent;
}

/** What is wrong with a candidate event, or undefined when it is one. */
export function eventProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'expected an object';
  const event = value.event;
  if (typeof event !== 'string' || event === '') return 'event: expected a non-empty string';
  if (!isTimestamp(value.occurredAt)) return 'occurredAt: expected an ISO 8601 date-time';
  const isPayment = event === 'payment.succeeded' || event === 'payment.failed';
  for (const field of ID_FIELDS) {
    const id = value[field];
    if (id === undefined) {
      if (isPayment && PAYMENT_REQUIRED.includes(field)) return `${field}: required`;
    } else if (typeof id !== 'string') return `${field}: expected a string`;
  }
  if (isPayment) {
    if (!PAYMENT_STATUS_SET.has(value.status)) return 'status: expected a payment status';
  } else if (value.status !== undefined && typeof value.status !== 'string')
    return 'status: expected a string';
  if (value.amountCollected !== undefined && !isMoney(value.amountCollected))
    return 'amountCollected: expected Money';
  if (value.periodOutstanding !== undefined && !isMoney(value.periodOutstanding))
    return 'periodOutstanding: expected Money';
  if (value.metadata !== undefined && !isPlainObject(value.metadata)) return 'metadata: expected an object';
  if (value.subscriptionStatus !== undefined && !SUBSCRIPTION_STATUS_SET.has(value.subscriptionStatus))
    return 'subscriptionStatus: expected a subscription status';
  if (value.currentPeriodEnd !== undefined && !isTimestamp(value.currentPeriodEnd))
    return 'currentPeriodEnd: expected an ISO 8601 date-time';
  if (value.cancelAt != null && !isTimestamp(value.cancelAt))
    return 'cancelAt: expected an ISO 8601 date-time';
  if (value.trialEndsAt != null && !isTimestamp(value.trialEndsAt))
    return 'trialEndsAt: expected an ISO 8601 date-time';
  return undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isTimestamp(value: unknown): boolean {
  return typeof value === 'string' && ISO_TIMESTAMP.test(value);
}

function isMoney(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.amount === 'number' &&
    Number.isSafeInteger(value.amount) &&
    typeof value.currency === 'string' &&
    CURRENCY.test(value.currency)
  );
}
