import type { Subscription } from './subscription.js';
import type { WebhookEvent } from './webhook-event.js';

/**
 * What the kit does when one phone line pays twice for a product (two accounts, one line):
 * - `report` (default): both keep access; the kit records it, logs it and tells you;
 * - `cancel-newer`: the newer subscription is also cancelled at period end through the API, so
 *   the line is never charged a second renewal; both keep access until then.
 */
export type LinePolicy = 'report' | 'cancel-newer';

/** `on.linePaysTwice`: a line holds live subscriptions of one product under several accounts. */
export interface LinePaysTwiceContext {
  readonly subscriberUid: string;
  readonly productUid: string;
  /** The subscriptions that would each renew, oldest first, and their accounts in the same order. */
  readonly subscriptionUids: readonly string[];
  readonly accountKeys: readonly string[];
  /** The newest of them: the one `cancel-newer` cancels. */
  readonly newer: { readonly accountKey: string; readonly subscriptionUid: string };
  readonly policy: LinePolicy;
  /** `cancel-newer`: the newer subscription as the API answered the cancel (PRE_CANCELED). */
  readonly canceled?: Subscription;
  /** The event that made the line pay twice. */
  readonly event: WebhookEvent;
}
