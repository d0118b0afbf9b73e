import type { Random } from './prng.js';

/** The sandbox's test numbers the subscribers pay with, besides their own lines. */
export const TEST_LINES = {
  declined: '+21620000103',
  insufficientBalance: '+21620000101',
  renewalsFail: '+21620000401',
  renewalRecovers: '+21620000402',
} as const;

/**
 * A subscriber's own line: Sahel Mobile's +2162 then 1 and six digits, far from the test numbers
 * (+21620000xxx). Pairs of subscribers (the first `sharedPairs` pairs) share one line: a family's
 * phone, whose second account may buy what the line already pays for.
 */
export function ownLineOf(index: number, sharedPairs: number): string {
  const lineIndex = index < sharedPairs * 2 ? index - (index % 2) : index;
  return `+21621${String(lineIndex).padStart(6, '0')}`;
}

/** The line one checkout is paid with: mostly the subscriber's own, sometimes a test number. */
export function lineForCheckout(
  random: Random,
  own: string,
): { msisdn: string; outcome: 'pay' | 'DECLINED' | 'INSUFFICIENT_BALANCE' } {
  const roll = random.next();
  if (roll < 0.05) return { msisdn: TEST_LINES.declined, outcome: 'DECLINED' };
  if (roll < 0.1) return { msisdn: TEST_LINES.insufficientBalance, outcome: 'INSUFFICIENT_BALANCE' };
  if (roll < 0.13) return { msisdn: TEST_LINES.renewalsFail, outcome: 'pay' };
  if (roll < 0.16) return { msisdn: TEST_LINES.renewalRecovers, outcome: 'pay' };
  return { msisdn: own, outcome: 'pay' };
}
