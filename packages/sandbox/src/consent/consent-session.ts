import type { ConsentPolicy, SandboxOffer } from '../config/config-schema.js';
import { consentMethodsFor, consentPlan, type Network } from '../operator/consent-methods.js';
import type { AcceptedLine } from '../operator/number-lookup.js';
import type { ConsentMethod } from '../shared/service-types.js';

/**
 * The checkout's consent state machine, with no HTTP, no clock and no chance of its own: time and
 * dice come in, the next state and what the operator must carry (an SMS) come out. A checkout is at
 * the number step until a number is accepted, then at the consent step (a ConsentSession) until
 * consent is given or the PIN attempts run out.
 */

/** A PIN texted to the line: the code, until when it holds, and the tries left. */
export interface PinChallenge {
  readonly code: string;
  readonly expiresAt: Date;
  readonly attemptsLeft: number;
}

/** Where a subscriber is once the number was accepted. Before that there is none: the number step. */
export interface ConsentSession {
  readonly line: AcceptedLine;
  readonly network: Network;
  /** Methods open to this subscriber, in order; `method` is the one shown. */
  readonly methods: readonly ConsentMethod[];
  readonly method: ConsentMethod;
  readonly pin?: PinChallenge;
  /** The keyword the MO_SMS method asks the subscriber to send. */
  readonly keyword?: string;
}

/** Where chance comes in: the PIN texted and the keyword asked for. Tests pass fixed ones. */
export interface ConsentDice {
  pinCode(length: number): string;
  keyword(): string;
}

/** What a transition may need besides the session: the time, the consent policy, the dice. */
export interface ConsentContext {
  now: Date;
  policy: ConsentPolicy;
  dice: ConsentDice;
}

/** An SMS a step makes the operator carry: a PIN texted to the line, or the keyword the subscriber sent. */
export type ConsentSms = { direction: 'MT'; pin: string } | { direction: 'MO'; text: string };

/** Why the consent step refused what the subscriber did; the step stands. */
export type ConsentRefusal =
  | { reason: 'pin-expired' }
  | { reason: 'pin-wrong'; attemptsLeft: number }
  | { reason: 'keyword-wrong' };

/** Where a step at the consent step led. */
export type ConsentOutcome =
  /** The consent step stands, perhaps on another method or with a new PIN. */
  | { kind: 'waiting'; session: ConsentSession; sms?: ConsentSms }
  /** The same step again, with why. */
  | { kind: 'refused'; session: ConsentSession; refusal: ConsentRefusal; sms?: ConsentSms }
  /** Consent given: the line may be charged. */
  | { kind: 'consented'; line: AcceptedLine; sms?: ConsentSms }
  /** Every PIN attempt was used up: the payment fails. */
  | { kind: 'failed' }
  /** Back to the number step. */
  | { kind: 'number' };

/** Where the number step led. `Code` is the service's refusal code for a number it will not charge. */
export type NumberOutcome<Code extends string> =
  | { kind: 'number-refused'; code: Code }
  /** No method is open on this network (a network-recognition-only operator, on Wi-Fi). */
  | { kind: 'no-method' }
  | Extract<ConsentOutcome, { kind: 'waiting' }>;

/** The service's verdict on the typed number. */
export type NumberVerdict<Code extends string> = AcceptedLine | { ok: false; code: Code };

/**
 * The number step: an accepted line opens the consent step on the first method the operator, the
 * offer and the policy allow on this network (a PIN is texted at once when that is the PIN).
 */
export function submitNumber<Code extends string>(
  verdict: NumberVerdict<Code>,
  network: Network,
  offer: Pick<SandboxOffer, 'type' | 'consentMethods'>,
  context: ConsentContext,
): NumberOutcome<Code> {
  if (!verdict.ok) return { kind: 'number-refused', code: verdict.code };
  const methods = consentPlan(consentMethodsFor(verdict.operator, offer, context.policy), network);
  const [first] = methods;
  if (first === undefined) return { kind: 'no-method' };
  return openMethod({ line: verdict, network, methods, method: first }, first, context);
}

/** A typed PIN: consent when it matches in time; a wrong one costs an attempt, the last one fails. */
export function submitPin(session: ConsentSession, typed: string, context: ConsentContext): ConsentOutcome {
  const { pin } = session;
  if (session.method !== 'PIN' || !pin) return { kind: 'waiting', session };
  if (context.now.getTime() > pin.expiresAt.getTime()) {
    return { kind: 'refused', session, refusal: { reason: 'pin-expired' } };
  }
  if (typed.trim() === pin.code) return { kind: 'consented', line: session.line };
  const attemptsLeft = pin.attemptsLeft - 1;
  if (attemptsLeft <= 0) return { kind: 'failed' };
  return {
    kind: 'refused',
    session: { ...session, pin: { ...pin, attemptsLeft } },
    refusal: { reason: 'pin-wrong', attemptsLeft },
  };
}

/** A fresh PIN with a fresh time and every attempt back; only while the PIN method is shown. */
export function resendPin(session: ConsentSession, context: ConsentContext): ConsentOutcome {
  if (session.method !== 'PIN') return { kind: 'waiting', session };
  const pin = newPin(context);
  return { kind: 'waiting', session: { ...session, pin }, sms: { direction: 'MT', pin: pin.code } };
}

/** Network recognition: consent, but only on mobile data, where the operator sees the line. */
export function confirmHeaderEnrichment(session: ConsentSession): ConsentOutcome {
  return session.method === 'HEADER_ENRICHMENT' && session.network === 'MOBILE_DATA'
    ? { kind: 'consented', line: session.line }
    : { kind: 'waiting', session };
}

/** The subscriber texts the short code: the operator carries the SMS, whose keyword must match. */
export function sendKeyword(session: ConsentSession, text: string): ConsentOutcome {
  if (session.method !== 'MO_SMS' || !session.keyword) return { kind: 'waiting', session };
  const sms: ConsentSms = { direction: 'MO', text: text.trim() };
  if (sms.text.toUpperCase() !== session.keyword) {
    return { kind: 'refused', session, refusal: { reason: 'keyword-wrong' }, sms };
  }
  return { kind: 'consented', line: session.line, sms };
}

/** Shows another of the open methods; anything else leaves the step as it is. */
export function switchMethod(
  session: ConsentSession,
  method: ConsentMethod | undefined,
  context: ConsentContext,
): ConsentOutcome {
  if (method === undefined || !session.methods.includes(method)) return { kind: 'waiting', session };
  return openMethod(session, method, context);
}

/** Back to the number step, unless the partner locked the number. */
export function changeNumber(session: ConsentSession, numberLocked: boolean): ConsentOutcome {
  return numberLocked ? { kind: 'waiting', session } : { kind: 'number' };
}

// A method keeps its PIN or keyword once it has one: switching back and forth texts no new PIN.
function openMethod(
  session: ConsentSession,
  method: ConsentMethod,
  context: ConsentContext,
): Extract<ConsentOutcome, { kind: 'waiting' }> {
  if (method === 'PIN' && !session.pin) {
    const pin = newPin(context);
    return { kind: 'waiting', session: { ...session, method, pin }, sms: { direction: 'MT', pin: pin.code } };
  }
  if (method === 'MO_SMS' && !session.keyword) {
    return { kind: 'waiting', session: { ...session, method, keyword: context.dice.keyword() } };
  }
  return { kind: 'waiting', session: { ...session, method } };
}

function newPin({ now, policy, dice }: ConsentContext): PinChallenge {
  return {
    code: dice.pinCode(policy.pin.length),
    expiresAt: new Date(now.getTime() + policy.pin.ttlSeconds * 1000),
    attemptsLeft: policy.pin.maxAttempts,
  };
}
