import { randomInt } from 'node:crypto';
import type { ConsentMethod } from '../shared/service-types.js';
import { SandboxCheckoutError } from './checkout-error.js';
import type { ConfigView, PaymentControlView } from './sandbox-config-view.js';

/** What the mock operator should do with the chosen number. */
export type LineOutcome = 'SUCCESS' | 'INSUFFICIENT_BALANCE' | 'DECLINED';

type Operator = ConfigView['operators'][number];

// Bounds the search for a fresh number that is no test number (test numbers are a handful).
const MAX_DRAWS = 50;

function belongsTo(msisdn: string, operator: Operator): boolean {
  return (
    msisdn.length === operator.numbering.digits + 1 &&
    operator.numbering.prefixes.some((prefix) => msisdn.startsWith(prefix))
  );
}

/** The consent methods an operator leaves open for the payment's offer (as the checkout computes them). */
export function methodsFor(
  config: ConfigView,
  payment: PaymentControlView,
  operator: Operator,
): ConsentMethod[] {
  const offer = config.offers.find((candidate) => candidate.offerUid === payment.offerUid);
  if (!offer) return [];
  const byType = config.consentPolicy.allowedByOfferType[offer.type];
  return operator.consentMethods.filter(
    (method) =>
      (offer.consentMethods === undefined || offer.consentMethods.includes(method)) &&
      (byType === undefined || byType.includes(method)),
  );
}

/** Operators that sell the payment's offer, respect its operator hint, and offer `method`. */
function eligibleOperators(
  config: ConfigView,
  payment: PaymentControlView,
  method?: ConsentMethod,
): Operator[] {
  const offer = config.offers.find((candidate) => candidate.offerUid === payment.offerUid);
  if (!offer) throw new SandboxCheckoutError(`The sandbox has no offer ${payment.offerUid}.`);
  return config.operators.filter(
    (operator) =>
      offer.operators.includes(operator.code) &&
      (payment.request.operator === null || payment.request.operator === operator.code) &&
      (method === undefined || methodsFor(config, payment, operator).includes(method)),
  );
}

/**
 * A number for the payment: for SUCCESS a fresh one of an eligible operator (never a test number,
 * so a trial already used or an item already owned never refuses it); for a failure the config's
 * test number with that outcome. Throws SandboxCheckoutError when the config has none.
 */
export function chooseNumber(
  config: ConfigView,
  payment: PaymentControlView,
  outcome: LineOutcome,
  method?: ConsentMethod,
): string {
  const operators = eligibleOperators(config, payment, method);
  const how = method === undefined ? '' : ` with ${method}`;
  if (operators.length === 0) {
    throw new SandboxCheckoutError(`No operator sells ${payment.offerUid}${how} in this sandbox's config.`);
  }
  if (outcome !== 'SUCCESS') {
    const number = Object.entries(config.testNumbers).find(
      ([msisdn, numberOutcome]) =>
        numberOutcome === outcome && operators.some((operator) => belongsTo(msisdn, operator)),
    )?.[0];
    if (number === undefined) {
      throw new SandboxCheckoutError(
        `The config has no ${outcome} test number of an operator that sells ${payment.offerUid}${how}.`,
      );
    }
    return number;
  }
  for (let draw = 0; draw < MAX_DRAWS; draw++) {
    const operator = operators[randomInt(operators.length)] as Operator;
    const prefix = operator.numbering.prefixes[randomInt(operator.numbering.prefixes.length)] ?? '+';
    let msisdn = prefix;
    while (msisdn.length < operator.numbering.digits + 1) msisdn += String(randomInt(10));
    if (!(msisdn in config.testNumbers)) return msisdn;
  }
  throw new SandboxCheckoutError(`Could not draw a number that is no test number for ${payment.offerUid}.`);
}
