import type { WebhookEvent } from '../schemas/webhook-event.js';

/**
 * Which account an event belongs to: the name of the payment `metadata` field that holds your
 * user id (default `accountKey`), or a function of the event.
 */
export type AccountKeyOption = string | ((event: WebhookEvent) => string | undefined);

export const DEFAULT_ACCOUNT_KEY_FIELD = 'accountKey';

/**
 * The account key of an event: the metadata field (or your function), else, when
 * `subscriberFallback` is set, the `subscriberUid`. The fallback is for payment events only: an
 * event without metadata may belong to an account keyed by metadata, which only a lookup by
 * subscriptionUid or paymentUid can tell.
 */
export function resolveAccountKey(
  option: AccountKeyOption,
  event: WebhookEvent,
  subscriberFallback: boolean,
): string | undefined {
  const fromPartner = typeof option === 'function' ? option(event) : fromMetadata(event, option);
  if (typeof fromPartner === 'string' && fromPartner !== '') return fromPartner;
  return subscriberFallback && event.subscriberUid ? event.subscriberUid : undefined;
}

function fromMetadata(event: WebhookEvent, field: string): string | undefined {
  const value = event.metadata?.[field];
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}
