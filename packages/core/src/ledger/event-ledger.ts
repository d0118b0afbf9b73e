/**
 * - `new`: the caller now holds the claim: process the event, then `complete` or `release` it.
 * - `duplicate`: this event was completed before; answer 2xx and do nothing.
 * - `in_progress`: another delivery holds the claim right now; ask the service to retry later.
 */
export type ClaimResult = 'new' | 'duplicate' | 'in_progress';

/** Which claim a `complete` or `release` is about: opaque, handed back as `claim` gave it. */
export type ClaimToken = string | number;

/**
 * A claim's answer. A `new` one carries the token of this holder: a claim that lapsed and was taken
 * over by another delivery has another token, so a late `release` by the first holder frees nothing.
 */
export type Claim =
  | { readonly status: 'new'; readonly token: ClaimToken }
  | { readonly status: 'duplicate' | 'in_progress' };

/**
 * Remembers which webhook events were processed, so that at-least-once delivery applies each
 * event once, including two copies arriving at the same moment. A claim left in progress (a
 * crash between claim and complete) must lapse after a lease, so that a retry can process it.
 * Check an implementation with `runLedgerConformance` from `@dcbkit/core/store`.
 */
export interface EventLedger {
  /** Atomically claims the key: exactly one of several concurrent claims of a key gets `new`. */
  claim(key: string): Promise<Claim>;
  /**
   * Marks the key processed, when the claim is still this token's or lapsed with no one else
   * holding it: later claims answer `duplicate` until the record expires. A claim taken over by
   * another holder is left to that holder.
   */
  complete(key: string, token: ClaimToken): Promise<void>;
  /** Gives up this token's claim after a failure, so that the service's next attempt is processed. */
  release(key: string, token: ClaimToken): Promise<void>;
}
