/** Every event name of the spec's Events table. What each does to access is in access/event-meaning.ts. */
export const WEBHOOK_EVENT_NAMES = [
  'payment.succeeded',
  'payment.failed',
  'entitlement.granted',
  'entitlement.updated',
  'entitlement.revoked',
  'subscription.trial_started',
  'subscription.trial_will_end',
  'subscription.updated',
  'subscription.suspended',
  'subscription.canceled',
  'subscription.expired',
  'subscription.failed',
] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

const KNOWN: ReadonlySet<string> = /* @__PURE__ */ new Set(WEBHOOK_EVENT_NAMES);

/** True when dcbkit knows the event name; unknown names still verify, so a new event type never breaks you. */
export function isKnownEventName(name: string): name is WebhookEventName {
  return KNOWN.has(name);
}
