import {
  belongsToOperator,
  e164Schema,
  type OperatorConfig,
  type SandboxConfig,
  type TestNumberOutcome,
} from '../config/config-schema.js';

/** What the mock operator will do when it charges a line it accepted at checkout. */
export type ChargeBehaviour = 'SUCCESS' | 'INSUFFICIENT_BALANCE' | 'DECLINED' | 'SLOW';

/** Refusals about the number itself, before any consent: the spec's SBR-102, SBR-104 and RSK-101. */
export type NumberRefusalCode = 'SBR-102' | 'SBR-104' | 'RSK-101';

export type NumberLookup =
  | { ok: true; msisdn: string; operator: OperatorConfig; behaviour: ChargeBehaviour }
  | { ok: false; code: NumberRefusalCode; message: string };

/** A number the operator accepted: its normalised form, its operator, and how a charge will go. */
export type AcceptedLine = Extract<NumberLookup, { ok: true }>;

/**
 * Classifies a number: its operator (by numbering prefix and length) and the outcome its test
 * number entry chooses. Any other well-formed number of a configured operator succeeds.
 */
export function lookUpNumber(
  config: Pick<SandboxConfig, 'operators' | 'testNumbers'>,
  rawMsisdn: string,
): NumberLookup {
  const msisdn = rawMsisdn.replace(/[\s.()-]/g, '');
  if (!e164Schema.safeParse(msisdn).success) {
    return { ok: false, code: 'SBR-102', message: 'The mobile number is not a valid E.164 number.' };
  }
  const outcome = config.testNumbers[msisdn];
  if (outcome === 'INVALID_NUMBER')
    return { ok: false, code: 'SBR-102', message: 'The mobile number is invalid.' };
  if (outcome === 'UNSUPPORTED_OPERATOR') {
    return { ok: false, code: 'SBR-104', message: 'This mobile operator is not supported.' };
  }
  if (outcome === 'OPTED_OUT') {
    return { ok: false, code: 'RSK-101', message: 'The subscriber has opted out of carrier billing.' };
  }
  const operator = config.operators.find((candidate) => belongsToOperator(msisdn, candidate));
  if (!operator) {
    const wrongLength = config.operators.some((candidate) =>
      candidate.numbering.prefixes.some((prefix) => msisdn.startsWith(prefix)),
    );
    return wrongLength
      ? { ok: false, code: 'SBR-102', message: 'The mobile number has the wrong number of digits.' }
      : { ok: false, code: 'SBR-104', message: 'This mobile operator is not supported.' };
  }
  return { ok: true, msisdn, operator, behaviour: checkoutBehaviour(outcome) };
}

function checkoutBehaviour(outcome: TestNumberOutcome | undefined): ChargeBehaviour {
  switch (outcome) {
    case 'INSUFFICIENT_BALANCE':
    case 'DECLINED':
    case 'SLOW':
      return outcome;
    default:
      // The renewal test numbers pay at checkout; they fail only the charges that come later.
      return 'SUCCESS';
  }
}
