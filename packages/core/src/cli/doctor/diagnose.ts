import { optionError } from '../../errors/option-error.js';
import {
  type ClockEvidence,
  clockEvidence,
  describeOffsets,
  directionOf,
  isOffByAtLeast,
  type OffsetRange,
} from './clock-evidence.js';
import { byImportance, type Finding, finding } from './findings.js';
import {
  type AnsweredProbe,
  describeAnswer,
  type FailedProbe,
  isAccepted,
  isAnswered,
  isFailed,
  isRefused,
  kitCodeOf,
  type ProbeAnswer,
  sameAnswer,
} from './probe-answer.js';
import {
  CLOCK_MARGIN_SECONDS,
  OVERSIZE_BODY_BYTES,
  type ProbeId,
  SPEC_TOLERANCE_SECONDS,
} from './probe-plan.js';

// From the answers to the findings, without I/O: statuses, timing and Date headers first, since
// the receiver may be any framework; dcbkit's codes, when it answers with them, as extra evidence.

/** Slower than this, an answer is a finding: the service expects a quick 2xx. */
export const SLOW_ANSWER_MS = 2000;

/** A Date header this far off is reported even when the timestamp probes could not see it. */
export const DATE_SKEW_WARNING_SECONDS = 30;

/** Statuses a receiver refuses a bad signature with, when it says no more than that. */
const AUTHENTICATION_STATUSES = new Set([400, 401, 403]);

type AnswersById = Partial<Record<ProbeId, ProbeAnswer>>;

/**
 * The findings the answers show, errors first; none for a receiver that answered every probe as
 * the spec expects. The answers must include the `valid` probe's: when it got no HTTP answer, that
 * is the only finding (nothing else was sent).
 *
 * @example
 * const findings = diagnose(answers);
 * if (findings.some((f) => f.severity === 'error')) process.exitCode = 1;
 */
export function diagnose(answers: readonly ProbeAnswer[]): Finding[] {
  const of: AnswersById = {};
  for (const answer of answers) of[answer.probe] ??= answer;
  const { valid } = of;
  if (valid === undefined) throw optionError('diagnose', 'answers', "must include the valid probe's answer.");
  if (isFailed(valid)) return [unreachable(valid)];
  const clock = clockEvidence(answers);
  const findings = [
    ...(isAccepted(valid) ? afterAcceptance(of, clock) : [afterRefusal(valid, of, clock)]),
    ...verification(of, clock),
    ...bodyLimit(of),
    ...slowness(answers),
  ];
  return findings.sort(byImportance);
}

function unreachable(valid: FailedProbe): Finding {
  switch (valid.failure) {
    case 'dns':
      return finding('dns_failed', `The host name does not resolve (${valid.message}).`);
    case 'tls':
      return finding('tls_failed', `The TLS handshake failed (${valid.message}).`);
    case 'timeout':
      return finding('timed_out', `A valid probe got no answer within ${valid.latencyMs} ms.`);
    default:
      return finding('connection_failed', `The request could not be made (${valid.message}).`);
  }
}

/** The valid probe was refused: say why, from the most specific evidence to the least. */
function afterRefusal(valid: AnsweredProbe, of: AnswersById, clock: ClockEvidence): Finding {
  const seen = `A valid probe was answered ${describeAnswer(valid)}`;
  if (valid.status >= 300 && valid.status < 400) {
    return finding('valid_redirected', `${seen}${valid.location ? `, to ${valid.location}` : ''}.`);
  }
  const code = kitCodeOf(valid);
  if (code === 'signature_mismatch') return wrongSecret(seen);
  if (code === 'header_missing') return headerDropped(seen);
  if (code === 'timestamp_out_of_tolerance') return clockSkew(seen, clock);
  if (code === 'body_not_raw') return finding('raw_body_lost', `${seen}.`);
  if (code === undefined) {
    // A probe signed minutes away accepted while the fresh one is refused: the receiver's clock.
    if (isAccepted(of.clock_past) || isAccepted(of.clock_future)) return clockSkew(seen, clock);
    const likeForeign = sameAnswer(valid, of.foreign_secret);
    const likeUnsigned = sameAnswer(valid, of.unsigned);
    if (likeForeign && !likeUnsigned)
      return wrongSecret(`${seen}, as the probe signed with another secret was`);
    if (likeUnsigned && !likeForeign) return headerDropped(`${seen}, as the unsigned probe was`);
    if (likeUnsigned && likeForeign && AUTHENTICATION_STATUSES.has(valid.status)) {
      return finding(
        'signature_refused',
        `${seen}, exactly as the unsigned probe and the probe signed with another secret were.`,
      );
    }
  }
  if (valid.status === 404 || valid.status === 405) return finding('valid_not_found', `${seen}.`);
  if (valid.status >= 500) return finding('valid_failed', `${seen}.`);
  return finding('valid_refused', `${seen}.`);
}

function wrongSecret(seen: string): Finding {
  return finding(
    'wrong_secret',
    `${seen}: the receiver computes another signature than the doctor's secret.`,
  );
}

function headerDropped(seen: string): Finding {
  return finding(
    'signature_header_dropped',
    `${seen}: the Service-Signature header did not reach the check.`,
  );
}

function clockSkew(seen: string, clock: ClockEvidence): Finding {
  return finding(
    'clock_skew',
    `${seen}: it refuses a fresh delivery for its timestamp. ${clockReading(clock)}`,
  );
}

/** What the answers say of the receiver's clock, in one or two sentences. */
function clockReading({ dateSkewSeconds, verifyingOffsets }: ClockEvidence): string {
  const parts: string[] = [];
  if (dateSkewSeconds !== undefined) {
    parts.push(
      Math.abs(dateSkewSeconds) < 2
        ? "Its Date header agrees with this machine's clock"
        : `Its Date header is ${Math.abs(dateSkewSeconds)} s ${dateSkewSeconds > 0 ? 'ahead of' : 'behind'} this machine's clock`,
    );
  }
  if (verifyingOffsets !== undefined && verifyingOffsets.length > 0) {
    parts.push(
      `the timestamps it accepted and refused put the clock it verifies with ${describeOffsets(verifyingOffsets)}`,
    );
  }
  if (parts.length === 0) return 'Its answers carry no Date header to measure the difference.';
  const sentence = parts.join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

/** The valid probe was accepted: what its variants show. */
function afterAcceptance(of: AnswersById, clock: ClockEvidence): Finding[] {
  const findings: Finding[] = [];
  if (isRefused(of.reformatted)) {
    findings.push(
      finding(
        'body_reserialised',
        `The compact valid probe was accepted, but the same event indented and with its keys reordered was answered ${describeAnswer(of.reformatted)}.`,
      ),
    );
  }
  if (isRefused(of.duplicate)) {
    findings.push(
      finding(
        'duplicate_refused',
        `The valid probe was accepted, and the same delivery sent again was answered ${describeAnswer(of.duplicate)}.`,
      ),
    );
  }
  const clockFinding = driftOrTolerance(of, clock);
  if (clockFinding !== undefined) findings.push(clockFinding);
  return findings;
}

function driftOrTolerance(of: AnswersById, clock: ClockEvidence): Finding | undefined {
  const { verifyingOffsets: offsets, dateSkewSeconds } = clock;
  const margin = SPEC_TOLERANCE_SECONDS - CLOCK_MARGIN_SECONDS;
  if (offsets !== undefined && offsets.length === 0) {
    return finding(
      'narrow_tolerance',
      `Probes signed ${margin} s before and after now were answered ${describeAnswer(of.clock_past)} and ${describeAnswer(of.clock_future)}, while a fresh one was accepted: the receiver allows less than ${margin} s either side.`,
    );
  }
  if (offsets !== undefined && isOffByAtLeast(offsets, CLOCK_MARGIN_SECONDS)) {
    const behind = directionOf(offsets) === 'behind';
    const refused = behind ? 'after' : 'before';
    return finding(
      'clock_drift',
      `A probe signed ${margin} s ${refused} now was refused (${describeAnswer(behind ? of.clock_future : of.clock_past)}), though the spec accepts it. ${clockReading(clock)}${behind && isAccepted(of.stale) ? ` That is also why it accepted a probe signed ${SPEC_TOLERANCE_SECONDS + CLOCK_MARGIN_SECONDS} s ago.` : ''}`,
    );
  }
  if (dateSkewSeconds !== undefined && Math.abs(dateSkewSeconds) >= DATE_SKEW_WARNING_SECONDS) {
    return finding(
      'clock_drift',
      `The answers' Date header is ${Math.abs(dateSkewSeconds)} s ${dateSkewSeconds > 0 ? 'ahead of' : 'behind'} this machine's clock; the timestamp probes see only offsets over ${CLOCK_MARGIN_SECONDS} s.`,
    );
  }
  return undefined;
}

/** Deliveries a verifying receiver refuses, accepted. */
function verification(of: AnswersById, clock: ClockEvidence): Finding[] {
  const forged = (
    [
      ['tampered', 'the tampered probe'],
      ['foreign_secret', 'the probe signed with another secret'],
      ['unsigned', 'the unsigned probe'],
      ['stale', `the probe signed ${SPEC_TOLERANCE_SECONDS + CLOCK_MARGIN_SECONDS} s ago`],
    ] as const
  ).filter(([id]) => isAccepted(of[id]));
  if (forged.some(([id]) => id !== 'stale')) {
    const list = forged.map(([id, words]) => `${words} (${describeAnswer(of[id])})`).join(', ');
    return [finding('signature_not_verified', `Accepted: ${list}.`)];
  }
  if (isAccepted(of.stale) && !explainedByClock(clock.verifyingOffsets)) {
    return [
      finding(
        'stale_accepted',
        `A probe signed ${SPEC_TOLERANCE_SECONDS + CLOCK_MARGIN_SECONDS} s ago was answered ${describeAnswer(of.stale)}; the spec refuses a timestamp more than ${SPEC_TOLERANCE_SECONDS} s old.`,
      ),
    ];
  }
  return [];
}

/** A verifying clock more than the margin behind accepts the stale probe: clock_drift says so. */
function explainedByClock(offsets: readonly OffsetRange[] | undefined): boolean {
  return (
    offsets !== undefined &&
    isOffByAtLeast(offsets, CLOCK_MARGIN_SECONDS) &&
    directionOf(offsets) === 'behind'
  );
}

function bodyLimit(of: AnswersById): Finding[] {
  const { oversize } = of;
  if (isAccepted(oversize)) {
    return [
      finding(
        'no_body_limit',
        `A validly signed probe of ${OVERSIZE_BODY_BYTES} bytes (1 MiB and one byte) was answered ${describeAnswer(oversize)}.`,
      ),
    ];
  }
  if (isFailed(oversize) && oversize.failure === 'timeout') {
    return [
      finding(
        'oversize_not_refused',
        `A probe of ${OVERSIZE_BODY_BYTES} bytes got no answer within ${oversize.latencyMs} ms.`,
      ),
    ];
  }
  return [];
}

function slowness(answers: readonly ProbeAnswer[]): Finding[] {
  // The oversize probe is a megabyte: its upload time says more about the line than the receiver.
  const timed = answers.filter((answer) => answer.probe !== 'oversize');
  const slow = timed.filter((answer) => isAnswered(answer) && answer.latencyMs > SLOW_ANSWER_MS);
  const unanswered = timed.filter((answer) => isFailed(answer) && answer.failure === 'timeout');
  if (slow.length === 0 && unanswered.length === 0) return [];
  const parts: string[] = [];
  if (slow.length > 0) {
    const slowest = slow.reduce((a, b) => (b.latencyMs > a.latencyMs ? b : a));
    parts.push(
      `${slow.length} of ${timed.length} answers took longer than ${SLOW_ANSWER_MS / 1000} s (the slowest: ${slowest.probe}, ${Math.round(slowest.latencyMs)} ms)`,
    );
  }
  if (unanswered.length > 0) {
    parts.push(`no answer in time to ${unanswered.map((answer) => answer.probe).join(', ')}`);
  }
  return [
    finding(
      'slow_answers',
      `${parts.join('; ')}.`.replace(/^./, (first) => first.toUpperCase()),
    ),
  ];
}
