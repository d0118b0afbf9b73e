/**
 * - `new`: the caller now holds the claim: process the event, then `complete` or `release` it.
 * - `duplicate`: this event was completed before; answer 2xx and do nothing.
 * - `in_progress`: another delivery holds the claim right now; ask the service to retry later.
 */
export type ClaimResult = 'new' | 'duplicate' | 'in_progress';

/**
 * Remembers which webhook events were processed, so that at-least-once delivery applies each
 * event once, including two copies arriving at the same moment. A claim left in progress (a
 * crash between claim and complete) must lapse after a lease, so that a retry can process it.
 * Check an implementation with `runLedgerConformance` from `@dcbkit/core/store`.
 */
export interface EventLedger {
  /** Atomically claims the key: exactly one of several concurrent claims of a key gets `new`. */
  claim(key: string): Promise<ClaimResult>;
  /** Marks the claimed key processed: later claims answer `duplicate` until the record expires. */
  complete(key: string): Promise<void>;
  /** Gives up a claim after a failure, so that the service's next attempt is processed. */
  release(key: string): Promise<void>;
}
