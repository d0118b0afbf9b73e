import { isAccepted, isAnswered, kitCodeOf, type ProbeAnswer } from './probe-answer.js';
import { SPEC_TOLERANCE_SECONDS } from './probe-plan.js';

// What the answers say about the receiver's clock, from two independent sources: the Date header
// of each answer (the answering server's clock: a proxy's, maybe), and which timestamps the
// verifying code accepted (the clock that matters, within the margins the probes were signed with).

/** A closed range of offsets in seconds; ±Infinity where the probes set no bound. */
export interface OffsetRange {
  readonly min: number;
  readonly max: number;
}

export interface ClockEvidence {
  /**
   * The answering server's clock minus this machine's, from the Date headers (median, whole
   * seconds; positive: ahead). Undefined when no answer had a Date header.
   */
  readonly dateSkewSeconds: number | undefined;
  /**
   * Every offset of the verifying clock (its now minus this machine's, in seconds) that explains
   * which of the fresh and clock probes were accepted, assuming the spec's 300 s tolerance.
   * Undefined when the answers say nothing about time (every one refused for another reason);
   * empty when no single offset explains them (a tolerance narrower than the spec's).
   */
  readonly verifyingOffsets: readonly OffsetRange[] | undefined;
}

/** The probes signed alike but at different times: what they were refused for is their `t`. */
const TIMED_PROBES = new Set(['valid', 'clock_past', 'clock_future']);

/** Offsets are searched within an hour either way (the largest tolerance dcbkit allows). */
const SEARCH_SECONDS = 3600;

/** A Date header is truncated to the second: its true instant is half a second later on average. */
const DATE_RESOLUTION_MS = 500;

/** Answers slower than this say too little about when the Date header was written. */
const DATE_LATENCY_LIMIT_MS = 5000;

export function clockEvidence(answers: readonly ProbeAnswer[]): ClockEvidence {
  return { dateSkewSeconds: dateSkewOf(answers), verifyingOffsets: verifyingOffsetsOf(answers) };
}

function dateSkewOf(answers: readonly ProbeAnswer[]): number | undefined {
  const skews: number[] = [];
  for (const answer of answers) {
    if (!isAnswered(answer) || answer.date === undefined || answer.latencyMs > DATE_LATENCY_LIMIT_MS)
      continue;
    const dateMs = Date.parse(answer.date);
    if (Number.isNaN(dateMs)) continue;
    const answeredAtMs = answer.sentAtMs + answer.latencyMs / 2;
    skews.push((dateMs + DATE_RESOLUTION_MS - answeredAtMs) / 1000);
  }
  if (skews.length === 0) return undefined;
  skews.sort((a, b) => a - b);
  const middle = skews.length >> 1;
  const median =
    skews.length % 2 === 1
      ? (skews[middle] as number)
      : ((skews[middle - 1] as number) + (skews[middle] as number)) / 2;
  return Math.round(median);
}

/**
 * A receiver whose clock is X seconds ahead sees a probe signed o seconds from this machine's now
 * (when sent) as X - o old, and accepts it when |X - o| <= 300. Each timed probe accepted or
 * refused for its time narrows X; the offsets left are found by trying every second.
 */
function verifyingOffsetsOf(answers: readonly ProbeAnswer[]): OffsetRange[] | undefined {
  const observations: Array<{ offset: number; accepted: boolean }> = [];
  for (const answer of answers) {
    if (!TIMED_PROBES.has(answer.probe) || answer.timestamp === undefined || !isAnswered(answer)) continue;
    const code = kitCodeOf(answer);
    // Refused by dcbkit for anything but its time: that answer says nothing about the clock.
    if (code !== undefined && code !== 'timestamp_out_of_tolerance') continue;
    observations.push({ offset: answer.timestamp - answer.sentAtMs / 1000, accepted: isAccepted(answer) });
  }
  const provenTimed = answers.some(
    (answer) =>
      TIMED_PROBES.has(answer.probe) &&
      (isAccepted(answer) || kitCodeOf(answer) === 'timestamp_out_of_tolerance'),
  );
  // Without one acceptance (or dcbkit saying "timestamp"), every refusal may be the signature's.
  if (!provenTimed || observations.length === 0) return undefined;
  const ranges: OffsetRange[] = [];
  let start: number | undefined;
  for (let x = -SEARCH_SECONDS; x <= SEARCH_SECONDS + 1; x++) {
    const fits =
      x <= SEARCH_SECONDS && observations.every(({ offset, accepted }) => acceptsAt(x, offset) === accepted);
    if (fits && start === undefined) start = x;
    if (!fits && start !== undefined) {
      ranges.push({
        min: start === -SEARCH_SECONDS ? Number.NEGATIVE_INFINITY : start,
        max: x - 1 === SEARCH_SECONDS ? Number.POSITIVE_INFINITY : x - 1,
      });
      start = undefined;
    }
  }
  return ranges;
}

/** Whether a clock `skew` seconds ahead of this machine's accepts a `t` signed `offset` seconds from its now. */
function acceptsAt(skew: number, offset: number): boolean {
  return Math.abs(skew - offset) <= SPEC_TOLERANCE_SECONDS;
}

/**
 * True when every offset left is at least `seconds` from zero. At least, not more: a probe leaves
 * a fraction of a second after the whole second it was signed at, so a bound found by whole
 * seconds may land one second short.
 */
export function isOffByAtLeast(ranges: readonly OffsetRange[], seconds: number): boolean {
  return ranges.length > 0 && ranges.every(({ min, max }) => min >= seconds || max <= -seconds);
}

/** 'ahead' or 'behind' when every offset left agrees, else undefined. */
export function directionOf(ranges: readonly OffsetRange[]): 'ahead' | 'behind' | undefined {
  if (ranges.length === 0) return undefined;
  if (ranges.every(({ min }) => min > 0)) return 'ahead';
  if (ranges.every(({ max }) => max < 0)) return 'behind';
  return undefined;
}

/** True when some offset left lies within [min, max]. */
export function admits(ranges: readonly OffsetRange[], min: number, max: number): boolean {
  return ranges.some((range) => range.min <= max && range.max >= min);
}

/** `61 to 300 s ahead`, `more than 540 s off, behind or ahead`… */
export function describeOffsets(ranges: readonly OffsetRange[]): string {
  const [behind, ahead] = ranges;
  // Every probe refused for its time: far off, either way (the Date header may say which).
  if (
    ranges.length === 2 &&
    behind !== undefined &&
    ahead !== undefined &&
    behind.min === Number.NEGATIVE_INFINITY &&
    behind.max < 0 &&
    ahead.max === Number.POSITIVE_INFINITY &&
    ahead.min > 0
  ) {
    return `more than ${Math.min(-behind.max, ahead.min) - 1} s off, behind or ahead`;
  }
  return ranges.map(describeRange).join(', or ');
}

function describeRange({ min, max }: OffsetRange): string {
  if (min > 0) return Number.isFinite(max) ? `${min} to ${max} s ahead` : `more than ${min - 1} s ahead`;
  if (max < 0) return Number.isFinite(min) ? `${-max} to ${-min} s behind` : `more than ${-max - 1} s behind`;
  return `between ${Number.isFinite(min) ? `${-min} s behind` : 'any amount behind'} and ${Number.isFinite(max) ? `${max} s ahead` : 'any amount ahead'}`;
}
