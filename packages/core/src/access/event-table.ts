import { isKnownEventName, type WebhookEventName } from '../schemas/event-names.js';

/**
 * What an event does to access. The one table behind the rules (`decide`), the ordering of
 * same-instant events, the access listeners and the read-side paths.
 * - `grant`: access starts (or continues).
 * - `revoke`: access ends.
 * - `change`: access continues with new terms (renewal, grace, a cancellation scheduled or withdrawn).
 * - `none`: no access change; listeners may still act (a reminder, a failed payment).
 */
export type AccessEffect = 'grant' | 'revoke' | 'change' | 'none';

interface EventRow {
  access: AccessEffect;
  /**
   * For two events with the same `occurredAt`: the later step of a subscription's life wins, so
   * the outcome does not depend on which of them arrived first.
   */
  precedence: number;
}

/** Every event name of the spec, with what it does. */
export const WEBHOOK_EVENTS = {
  'payment.succeeded': { access: 'grant', precedence: 1 },
  'payment.failed': { access: 'none', precedence: 0 },
  'entitlement.granted': { access: 'grant', precedence: 2 },
  'entitlement.updated': { access: 'change', precedence: 3 },
  'entitlement.revoked': { access: 'revoke', precedence: 5 },
  'subscription.trial_started': { access: 'grant', precedence: 1 },
  'subscription.trial_will_end': { access: 'none', precedence: 0 },
  'subscription.updated': { access: 'change', precedence: 4 },
  'subscription.suspended': { access: 'revoke', precedence: 5 },
  'subscription.canceled': { access: 'revoke', precedence: 5 },
  'subscription.expired': { access: 'revoke', precedence: 5 },
  'subscription.failed': { access: 'revoke', precedence: 5 },
} as const satisfies Record<WebhookEventName, EventRow>;

/** What the event does to access; `none` for names dcbkit does not know. */
export function accessEffectOf(name: string | null | undefined): AccessEffect {
  return name != null && isKnownEventName(name) ? WEBHOOK_EVENTS[name].access : 'none';
}

/** The same-instant precedence of an event name; 0 for names dcbkit does not know. */
export function precedenceOf(name: string | null | undefined): number {
  return name != null && isKnownEventName(name) ? WEBHOOK_EVENTS[name].precedence : 0;
}
