import { accessEffectOf } from '../access/event-meaning.js';
import { hasAccess } from '../access/has-access.js';
import { isLastApplied } from '../access/times.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { LinePaysTwiceContext } from '../schemas/line-pays-twice.js';
import type { PaymentWebhookEvent, WebhookEvent, WebhookEventName } from '../schemas/webhook-event.js';

/** The event typed by its name: payment events always carry paymentUid, status, productUid and offerUid. */
export type EventNamed<Name extends WebhookEventName> = Name extends PaymentWebhookEvent['event']
  ? PaymentWebhookEvent & { event: Name }
  : WebhookEvent & { event: Name };

export interface EventContext<E extends WebhookEvent = WebhookEvent> {
  event: E;
  /** The account the event belongs to, when it could be told. */
  accountKey: string | undefined;
  /** The entitlement before the event, if any. */
  previous: Entitlement | undefined;
  /** The entitlement after the event (committed), if any. */
  entitlement: Entitlement | undefined;
}

export interface AccessContext {
  accountKey: string;
  productUid: string;
  entitlement: Entitlement;
  /** The event that changed access (for a server-side read, the payment as a payment.succeeded event). */
  event: WebhookEvent;
  /**
   * `webhook`; `payment_read` when applyPaymentRead (the return page, reconciliation) granted from `GET /v1/payments/{uid}`;
   * `reconciliation` when `reconcile` found the change with a server-side read (the events were missed).
   */
  source: 'webhook' | 'payment_read' | 'reconciliation';
}

type Listener<Context> = (context: Context) => void | Promise<void>;

/** One listener per event name, typed by that name. */
export type EventListeners = { [Name in WebhookEventName]?: Listener<EventContext<EventNamed<Name>>> };

/**
 * Your code, run after the store committed and before the service gets its 2xx. At least once:
 * when a listener throws, the handler answers 500 and the service's retry runs the listeners again,
 * so make them idempotent (key emails and side effects on the event or the entitlement).
 */
export interface WebhookListeners extends EventListeners {
  /** Access started: the entitlement gave no access before and does now. */
  accessGranted?: Listener<AccessContext>;
  /** Access ended: the entitlement gave access before and does not now. */
  accessRevoked?: Listener<AccessContext>;
  /** An event named an offer missing from your offers: nothing was written; add the offer, then replay it from the console. */
  unknownOffer?: Listener<{ event: WebhookEvent; offerUid: string | undefined }>;
  /**
   * A payment made a phone line hold live subscriptions of one product under several accounts:
   * the line is charged for each (see the handler's `linePolicy`). Needs a store that answers by line.
   */
  linePaysTwice?: Listener<LinePaysTwiceContext>;
}

/**
 * Whether the event started or ended access. A redelivery of the event last applied (its first
 * attempt committed, then a listener threw) counts again, so that access listeners are at least once.
 */
export function accessChange(
  previous: Entitlement | undefined,
  next: Entitlement | undefined,
  event: WebhookEvent,
  now: Date,
): 'granted' | 'revoked' | undefined {
  if (next === undefined) return undefined;
  const before = hasAccess(previous, now);
  const after = hasAccess(next, now);
  if (before !== after) return after ? 'granted' : 'revoked';
  if (!isLastApplied(event, previous)) return undefined;
  const effect = accessEffectOf(event.event);
  if (after && effect === 'grant') return 'granted';
  if (!after && effect === 'revoke') return 'revoked';
  return undefined;
}

export async function runAccessListeners(
  listeners: Pick<WebhookListeners, 'accessGranted' | 'accessRevoked'>,
  change: 'granted' | 'revoked' | undefined,
  context: AccessContext,
): Promise<void> {
  if (change === 'granted') await listeners.accessGranted?.(context);
  if (change === 'revoked') await listeners.accessRevoked?.(context);
}

export function hasEventListener(listeners: WebhookListeners, event: WebhookEvent): boolean {
  return listeners[event.event as WebhookEventName] !== undefined;
}

export async function runEventListener(listeners: WebhookListeners, context: EventContext): Promise<void> {
  const listener = listeners[context.event.event as WebhookEventName] as Listener<EventContext> | undefined;
  await listener?.(context);
}
