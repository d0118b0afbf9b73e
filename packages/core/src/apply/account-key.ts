import type { WebhookEvent } from '../schemas/webhook-event.js';

export const DEFAULT_ACCOUNT_KEY_FIELD = 'accountKey';

/**
 * How an event names its account. Three words, three meanings: `accountKey` is the value (your
 * user id), `accountKeyField` the payment metadata field that carries it, `accountKeyOfEvent` a
 * function that finds it in an event some other way.
 */
export interface AccountKeyOptions {
  /** The payment metadata field that holds your user id. Default `accountKey`. */
  accountKeyField?: string;
  /** Finds the account of an event yourself; when set, `accountKeyField` is not read. */
  accountKeyOfEvent?: (event: WebhookEvent) => string | undefined;
}

/**
 * The account key of an event. `subscriberFallback`: else the `subscriberUid`, for payment events
 * only: an event without metadata may belong to an account keyed by metadata, which only a lookup
 * by subscriptionUid or paymentUid can tell.
 */
export type AccountKeyOfEvent = (event: WebhookEvent, subscriberFallback: boolean) => string | undefined;

/** The resolver the options describe: your function, else the metadata field. */
export function accountKeyResolver({
  accountKeyField = DEFAULT_ACCOUNT_KEY_FIELD,
  accountKeyOfEvent,
}: AccountKeyOptions): AccountKeyOfEvent {
  const fromPartner = accountKeyOfEvent ?? ((event: WebhookEvent) => fromMetadata(event, accountKeyField));
  return (event, subscriberFallback) => {
    const key = fromPartner(event);
    if (typeof key === 'string' && key !== '') return key;
    return subscriberFallback && event.subscriberUid ? event.subscriberUid : undefined;
  };
}

function fromMetadata(event: WebhookEvent, field: string): string | undefined {
  const value = event.metadata?.[field];
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}
