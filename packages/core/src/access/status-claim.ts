import type { Entitlement, EntitlementStatus } from '../schemas/entitlement.js';
import { precedenceOf } from './event-meaning.js';
import { compareTimes } from './times.js';

/**
 * What an event (or a server-side read) writes to an entitlement when it is the latest: the status
 * fields and the record's marker. The entitlement holds exactly one claim, the greatest of all the
 * claims applied to it in the order below. A maximum does not depend on the order its candidates
 * arrived in, which is what makes the status order-independent.
 */
export interface StatusClaim {
  /** occurredAt; null for a read that proves no time (it ranks below every event). */
  readonly at: string | null;
  /** The event name, or `read:<event name>` for a server-side read (see readName). */
  readonly name: string | null;
  readonly status: EntitlementStatus;
  readonly cancelAt: string | null;
  readonly graceEndsAt: string | null;
  readonly offerUid: string;
  readonly subscriptionUid: string | null;
  readonly subscriberUid: string | null;
}

/** The claim an entitlement holds now. */
export function heldClaim(entitlement: Entitlement): StatusClaim {
  return {
    at: entitlement.lastEventAt,
    name: entitlement.lastEventName,
    status: entitlement.status,
    cancelAt: entitlement.cancelAt,
    graceEndsAt: entitlement.graceEndsAt,
    offerUid: entitlement.offerUid,
    subscriptionUid: entitlement.subscriptionUid,
    subscriberUid: entitlement.subscriberUid,
  };
}

const READ_PREFIX = 'read:';

/**
 * The marker a server-side read leaves in `lastEventName`: `read:` and the event the service sends
 * for what the read saw. The real event takes the marker over when it lands (see claimWins).
 */
export function readName(eventName: string): string {
  return `${READ_PREFIX}${eventName}`;
}

export function isReadName(name: string | null): boolean {
  return name?.startsWith(READ_PREFIX) === true;
}

/**
 * Same instant, same step of the subscription's life (the event table's precedence), another
 * outcome: only the tie-break decides between them. A cancellation at period end and its
 * withdrawal can be such a pair. Reads never tie: they rank just below the event they stand for.
 */
export function isSameInstantTie(incoming: StatusClaim, held: StatusClaim): boolean {
  if (incoming.at === null || held.at === null || isReadName(incoming.name) || isReadName(held.name)) {
    return false;
  }
  return (
    compareTimes(incoming.at, held.at) === 0 &&
    precedenceOf(incoming.name) === precedenceOf(held.name) &&
    incoming.status !== held.status
  );
}

/**
 * Whether the incoming claim replaces the held one.
 *
 * Events: the greater in the total order of compareClaims wins; `confirmedStatus` (what a
 * server-side read says the subscription is now) settles a same-instant tie between two outcomes
 * first, when it names exactly one of them.
 *
 * Reads (the return page, a cancel or resume answer) hold the status until the events land, and
 * never outrank one:
 * - a read replaces the held claim only when it is newer and says something else;
 * - an event of the read's subscription always replaces a read that says the same (the read saw
 *   that event's effect: the event takes the record over, so once every event has landed the
 *   record is what the events alone give), and otherwise wins over it by the order; so does an
 *   event of another subscription (an earlier one of the account), by the order alone.
 */
export function claimWins(
  incoming: StatusClaim,
  held: StatusClaim,
  confirmedStatus?: EntitlementStatus,
): boolean {
  const incomingIsRead = isReadName(incoming.name);
  if (incomingIsRead && incoming.status === held.status) return false;
  // Only the read's own subscription's event: an older event of a subscription the account had
  // before (its webhooks late after an outage) says the same status of another subscription, and
  // taking over would hand the record to it, then to its cancellation (bench/soak found it).
  if (
    !incomingIsRead &&
    isReadName(held.name) &&
    incoming.status === held.status &&
    incoming.subscriptionUid === held.subscriptionUid
  ) {
    return true;
  }
  if (confirmedStatus !== undefined && isSameInstantTie(incoming, held)) {
    if (incoming.status === confirmedStatus) return true;
    if (held.status === confirmedStatus) return false;
  }
  return compareClaims(incoming, held) > 0;
}

/**
 * A total order on claims: by time, then the event table's same-instant precedence (a read ranks
 * just below the event it stands for), then, for a same-instant tie, the outcome that gives more
 * access (so a tie never takes away access the subscriber may still have), then the text of every
 * other field written, so that two claims compare equal only when they write the same record.
 * Timestamps compare as text where they can (see compareTimes): no Date parsing on the hot path.
 */
export function compareClaims(a: StatusClaim, b: StatusClaim): number {
  return (
    compareNullableTimes(a.at, b.at) ||
    rankOfName(a.name) - rankOfName(b.name) ||
    ACCESS_RANK[a.status] - ACCESS_RANK[b.status] ||
    compareEnds(a.cancelAt, b.cancelAt, 'null_is_open') ||
    compareEnds(a.graceEndsAt, b.graceEndsAt, 'null_is_none') ||
    compareText(a.at, b.at) ||
    compareText(a.name, b.name) ||
    compareText(a.offerUid, b.offerUid) ||
    compareText(a.subscriptionUid, b.subscriptionUid) ||
    compareText(a.subscriberUid, b.subscriberUid)
  );
}

/** More access ranks higher: a tie never takes away access the subscriber may still have. */
const ACCESS_RANK: Record<EntitlementStatus, number> = {
  REVOKED: 0,
  IN_GRACE: 1,
  PRE_CANCELED: 2,
  TRIALING: 3,
  ACTIVE: 4,
};

/**
 * The same-instant rank of a name. A read ranks just below the event it stands for: that event
 * happened no earlier than the read's stamp (taken before the request), so at one instant the
 * event wins, while the earlier steps of the subscription's life (a payment at the same frozen
 * instant, say) do not mask what the read saw. Unknown names (which set no status) rank 0.
 */
function rankOfName(name: string | null): number {
  return isReadName(name)
    ? precedenceOf((name as string).slice(READ_PREFIX.length)) - 0.5
    : precedenceOf(name);
}

/** A claim with no time (a read that proves none, or a blank record) ranks below every time. */
function compareNullableTimes(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return compareTimes(a, b);
}

/** When access ends: later is more access; `null` is open-ended (cancelAt) or no access at all (grace). */
function compareEnds(a: string | null, b: string | null, nullMeans: 'null_is_open' | 'null_is_none'): number {
  if (a === null || b === null) {
    if (a === b) return 0;
    const nullWins = nullMeans === 'null_is_open' ? 1 : -1;
    return a === null ? nullWins : -nullWins;
  }
  return compareTimes(a, b);
}

function compareText(a: string | null, b: string | null): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}
