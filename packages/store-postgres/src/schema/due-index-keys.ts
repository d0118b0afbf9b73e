/**
 * What migration 6 indexes for reconciliation's due listing (core's dueReason), as SQL on the
 * columns every write copies from the record. The due query repeats these expressions exactly:
 * the planner uses an index only for the very expression (or predicate) it was built on, so a
 * change here needs a new migration that builds the indexes again.
 */

/** When the entitlement was last heard of: GREATEST skips nulls (null only when both are). */
export const HEARD = 'GREATEST(last_event_at, reconciled_at)';

/**
 * A live subscription whose deadline nothing was heard of since: due once `deadline_at` passes.
 * The predicate of the deadline index, so that one holds only these rows.
 */
export const DEADLINE_PENDING = `live_subscription AND deadline_at IS NOT NULL
  AND (${HEARD} IS NULL OR ${HEARD} < deadline_at)`;

/**
 * When a live subscription was last heard of (-infinity for never: due at any age); null for
 * every other row, which no age makes due. The key of the age index, which covers every row rather
 * than the live ones only: PostgreSQL keeps statistics on an index expression, but uses them only
 * from an index without a predicate, and without them it guesses a third of the table due and
 * reads all of it.
 */
export const HEARD_IF_LIVE = `CASE WHEN live_subscription THEN COALESCE(${HEARD}, '-infinity'::timestamptz) END`;
