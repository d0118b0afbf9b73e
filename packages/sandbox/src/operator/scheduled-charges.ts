import type { SandboxConfig, TestNumberOutcome } from '../config/config-schema.js';

/** How the mock operator answers a charge. */
export type ChargeOutcome = 'SUCCESS' | 'INSUFFICIENT_BALANCE' | 'DECLINED';

/**
 * The mock operator's answer to a charge the service runs by itself (trial conversion, renewal,
 * grace retry), chosen by the line's test number. `attempt` is 0 for the charge at the end of a
 * trial or period, and n for the n-th retry in grace.
 */
export function scheduledChargeOutcome(
  config: Pick<SandboxConfig, 'testNumbers'>,
  msisdn: string | undefined,
  attempt: number,
): ChargeOutcome {
  const outcome: TestNumberOutcome | undefined =
    msisdn === undefined ? undefined : config.testNumbers[msisdn];
  switch (outcome) {
    case 'INSUFFICIENT_BALANCE':
    case 'RENEWALS_FAIL':
      return 'INSUFFICIENT_BALANCE';
    case 'DECLINED':
      return 'DECLINED';
    case 'RENEWAL_RECOVERS_ON_SECOND_RETRY':
      return attempt >= 2 ? 'SUCCESS' : 'INSUFFICIENT_BALANCE';
    default:
      return 'SUCCESS';
  }
}
