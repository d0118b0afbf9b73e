/**
 * Ids an update brings that the store keeps beside the record rather than in it (a row each in
 * SQL), so that a record stays the same size however many payments and units it has seen, and a
 * purchase never copies the history.
 */
export interface EntitlementFacts {
  /**
   * A payment of this entitlement: `findByPaymentUid` finds the entitlement by it once recorded. A
   * payment belongs to one entitlement: one already recorded for another stays with that one.
   */
  readonly paymentUid?: string | undefined;
  /** CONSUMABLE: the order a unit was bought by. The rules count a unit only when neither its order nor its payment is known. */
  readonly unitOrderId?: string | undefined;
}

/** Which of an update's facts the store held for this entitlement before the update. */
export interface KnownFacts {
  readonly paymentUid: boolean;
  readonly unitOrderId: boolean;
}

/** What `change` is told when the update brings no facts, or none the store knows. */
export const NO_KNOWN_FACTS: KnownFacts = Object.freeze({ paymentUid: false, unitOrderId: false });
