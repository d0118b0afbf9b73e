import type { KitErrorCode } from '../../../errors/error-codes.js';
import { DCB_ERROR_CODES } from '../../../errors/error-codes.js';
import type { AnsweredProbe, FailedProbe, ProbeAnswer, ProbeFailure } from '../probe-answer.js';
import type { ProbeExpectation, ProbeId } from '../probe-plan.js';

// Answers as the doctor records them, written by hand: what a receiver of each kind answered.
// Every probe leaves at SENT_AT_MS, signed at its planned offset from it.

export const SENT_AT_MS = Date.parse('2030-01-01T12:00:00.000Z');

const PLAN: Record<ProbeId, { expect: ProbeExpectation; offset: number | undefined }> = {
  valid: { expect: 'accepted', offset: 0 },
  duplicate: { expect: 'accepted', offset: 0 },
  reformatted: { expect: 'accepted', offset: 0 },
  clock_past: { expect: 'accepted', offset: -240 },
  clock_future: { expect: 'accepted', offset: 240 },
  tampered: { expect: 'refused', offset: 0 },
  foreign_secret: { expect: 'refused', offset: 0 },
  unsigned: { expect: 'refused', offset: undefined },
  stale: { expect: 'refused', offset: -360 },
  oversize: { expect: 'refused', offset: 0 },
};

export const PROBE_IDS = Object.keys(PLAN) as ProbeId[];

export interface AnswerDetails {
  latencyMs?: number;
  /** Seconds the answering server's clock is ahead: its Date header says so. Default 0. */
  dateSkewSeconds?: number;
  /** No Date header at all. */
  noDate?: boolean;
  location?: string;
}

function base(probe: ProbeId, latencyMs: number) {
  const { expect, offset } = PLAN[probe];
  return {
    probe,
    expect,
    timestamp: offset === undefined ? undefined : SENT_AT_MS / 1000 + offset,
    sentAtMs: SENT_AT_MS,
    latencyMs,
  };
}

export function answered(
  probe: ProbeId,
  status: number,
  body = '',
  details: AnswerDetails = {},
): AnsweredProbe {
  const { latencyMs = 20, dateSkewSeconds = 0, noDate = false, location } = details;
  // The server writes its Date header (truncated to the second) halfway through the exchange.
  const dateMs = Math.floor((SENT_AT_MS + latencyMs / 2 + dateSkewSeconds * 1000) / 1000) * 1000;
  return {
    ...base(probe, latencyMs),
    status,
    body,
    date: noDate ? undefined : new Date(dateMs).toUTCString(),
    location,
  };
}

export function failed(probe: ProbeId, failure: ProbeFailure, latencyMs = 20): FailedProbe {
  return { ...base(probe, latencyMs), failure, message: `${failure} failure` };
}

/** dcbkit's answer: 200 `ignored`, or a refusal with the code's status. */
export function kit(probe: ProbeId, code: KitErrorCode | 'ignored', details?: AnswerDetails): AnsweredProbe {
  if (code === 'ignored') return answered(probe, 200, '{"received":true,"outcome":"ignored"}', details);
  const { httpStatus } = DCB_ERROR_CODES[code] as { httpStatus?: number };
  return answered(probe, httpStatus ?? 500, JSON.stringify({ received: false, error: code }), details);
}

/** What a healthy dcbkit receiver (maxBodyBytes under 1 MiB) answers each probe. */
export const HEALTHY_KIT: Readonly<Record<ProbeId, KitErrorCode | 'ignored'>> = {
  valid: 'ignored',
  duplicate: 'ignored',
  reformatted: 'ignored',
  clock_past: 'ignored',
  clock_future: 'ignored',
  tampered: 'signature_mismatch',
  foreign_secret: 'signature_mismatch',
  unsigned: 'header_missing',
  stale: 'timestamp_out_of_tolerance',
  oversize: 'body_too_large',
};

/** A dcbkit receiver's answers: the healthy ones, with some codes changed. */
export function kitAnswers(
  changes: Partial<Record<ProbeId, KitErrorCode | 'ignored'>> = {},
  details?: AnswerDetails,
): ProbeAnswer[] {
  return PROBE_IDS.map((probe) => kit(probe, changes[probe] ?? HEALTHY_KIT[probe], details));
}

/** Any receiver's answers: a status and body per probe. */
export function answersOf(
  answer: (probe: ProbeId) => [status: number, body?: string] | ProbeAnswer,
  details?: AnswerDetails,
): ProbeAnswer[] {
  return PROBE_IDS.map((probe) => {
    const given = answer(probe);
    return Array.isArray(given) ? answered(probe, given[0], given[1], details) : given;
  });
}
