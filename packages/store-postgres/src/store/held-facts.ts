import type { EntitlementFacts, KnownFacts } from '@dcbkit/core/store';

/** What the statements' `known` columns answer about an update's facts. */
export interface KnownRow {
  /** true: recorded for this entitlement; false: for another one; null: not recorded. */
  payment_ours: boolean | null;
  unit_known: boolean;
}

/** An update's facts as the store holds them: what `change` is told, and what a write records. */
export interface HeldFacts {
  readonly known: KnownFacts;
  /** The payment uid and unit order id to record with the write (null: none), the write's $8 and $9. */
  readonly toRecord: readonly [paymentUid: string | null, unitOrderId: string | null];
}

export const NOTHING_HELD: HeldFacts = Object.freeze({
  known: Object.freeze({ paymentUid: false, unitOrderId: false }),
  toRecord: Object.freeze([null, null] as const),
});

/** The facts as the `known` SQL takes them after the key: $3 payment uid, $4 unit order id. */
export function factParams(facts: EntitlementFacts): [string | null, string | null] {
  return [facts.paymentUid ?? null, facts.unitOrderId ?? null];
}

export function hasFacts(facts: EntitlementFacts): boolean {
  return facts.paymentUid !== undefined || facts.unitOrderId !== undefined;
}

export function heldFacts(facts: EntitlementFacts, row: KnownRow | undefined): HeldFacts {
  if (row === undefined || !hasFacts(facts)) return NOTHING_HELD;
  const [paymentUid, unitOrderId] = factParams(facts);
  return {
    known: { paymentUid: row.payment_ours === true, unitOrderId: row.unit_known === true },
    toRecord: [
      // A payment recorded for another entitlement stays with that one: nothing to write for it.
      row.payment_ours === null ? paymentUid : null,
      row.unit_known === true ? null : unitOrderId,
    ],
  };
}
