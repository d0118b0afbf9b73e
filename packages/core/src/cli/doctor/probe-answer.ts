import { isKitErrorCode } from '../../errors/error-codes.js';
import type { ProbeExpectation, ProbeId } from './probe-plan.js';

// What came back for one probe, as plain data (recorded answers are what diagnose() is tested on),
// and the few readings of it that the diagnosis shares.

/** Why a probe got no HTTP answer. */
export type ProbeFailure = 'dns' | 'connection' | 'tls' | 'timeout' | 'other';

interface AnswerBase {
  readonly probe: ProbeId;
  readonly expect: ProbeExpectation;
  /** The signature's `t` (unix seconds), copied from the probe; undefined when unsigned. */
  readonly timestamp: number | undefined;
  /** This machine's clock when the request left, in ms. */
  readonly sentAtMs: number;
  /** From sending to the end of the answer's body (or to the failure). */
  readonly latencyMs: number;
}

export interface AnsweredProbe extends AnswerBase {
  readonly status: number;
  /** The start of the answer's body (at most BODY_EXCERPT_BYTES). */
  readonly body: string;
  /** The answer's Date header, when it has one. */
  readonly date: string | undefined;
  /** The answer's Location header, when it has one (a redirect). */
  readonly location: string | undefined;
}

export interface FailedProbe extends AnswerBase {
  readonly failure: ProbeFailure;
  /** The network error's code and message, for the report. */
  readonly message: string;
}

export type ProbeAnswer = AnsweredProbe | FailedProbe;

/** How much of an answer's body is kept: enough for dcbkit's codes and a framework's error line. */
export const BODY_EXCERPT_BYTES = 2048;

export function isAnswered(answer: ProbeAnswer | undefined): answer is AnsweredProbe {
  return answer !== undefined && 'status' in answer;
}

export function isFailed(answer: ProbeAnswer | undefined): answer is FailedProbe {
  return answer !== undefined && 'failure' in answer;
}

/** Answered with a 2xx. */
export function isAccepted(answer: ProbeAnswer | undefined): answer is AnsweredProbe {
  return isAnswered(answer) && answer.status >= 200 && answer.status < 300;
}

/** Answered, with anything but a 2xx. */
export function isRefused(answer: ProbeAnswer | undefined): answer is AnsweredProbe {
  return isAnswered(answer) && !isAccepted(answer);
}

/**
 * dcbkit's word in the answer, when the receiver is dcbkit: a refusal's `error` code
 * (`{"received":false,"error":"signature_mismatch"}`) or an acceptance's `outcome`
 * (`{"received":true,"outcome":"ignored"}`). Undefined for any other body.
 */
export function kitWordOf(answer: ProbeAnswer | undefined): string | undefined {
  if (!isAnswered(answer) || !answer.body.startsWith('{"received":')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { received, error, outcome } = parsed as Record<string, unknown>;
  if (received === false && typeof error === 'string' && isKitErrorCode(error)) return error;
  if (received === true && typeof outcome === 'string') return outcome;
  return undefined;
}

/** The refusal code dcbkit answered, if any (undefined for an acceptance). */
export function kitCodeOf(answer: ProbeAnswer | undefined): string | undefined {
  return isRefused(answer) ? kitWordOf(answer) : undefined;
}

/**
 * True when two probes got the same answer: same status, and the same dcbkit code or, from any
 * other receiver, the same body. How the doctor tells "refused like an unsigned delivery" from
 * "refused like a foreign signature" without knowing the receiver.
 */
export function sameAnswer(a: ProbeAnswer | undefined, b: ProbeAnswer | undefined): boolean {
  if (!isAnswered(a) || !isAnswered(b) || a.status !== b.status) return false;
  const codeA = kitWordOf(a);
  const codeB = kitWordOf(b);
  if (codeA !== undefined || codeB !== undefined) return codeA === codeB;
  return a.body.trim() === b.body.trim();
}

/** One line for a report: `401 signature_mismatch`, `500 <h1>Internal…`, `no answer (timeout)`. */
export function describeAnswer(answer: ProbeAnswer | undefined): string {
  if (answer === undefined) return 'not sent';
  if (isFailed(answer)) return `no answer (${answer.failure})`;
  const word = kitWordOf(answer);
  if (word !== undefined) return `${answer.status} ${word}`;
  const excerpt = answer.body.replace(/\s+/g, ' ').trim();
  if (excerpt === '') return String(answer.status);
  return `${answer.status} ${excerpt.length > 40 ? `${excerpt.slice(0, 39)}…` : excerpt}`;
}
