import type { SandboxConfig } from '../config/config-schema.js';
import { type ChargeOutcome, scheduledChargeOutcome } from '../operator/scheduled-charges.js';
import type { SubscriptionRecord } from '../records/subscription-record.js';

/** Answers that can be forced on a subscription's next scheduled charges. */
export const RENEWAL_OUTCOMES = ['success', 'insufficient_balance', 'declined'] as const;
export type RenewalOutcome = (typeof RENEWAL_OUTCOMES)[number];

const CHARGE_OUTCOMES: Record<RenewalOutcome, ChargeOutcome> = {
  success: 'SUCCESS',
  insufficient_balance: 'INSUFFICIENT_BALANCE',
  declined: 'DECLINED',
};

export function chargeOutcomeOf(outcome: RenewalOutcome): ChargeOutcome {
  return CHARGE_OUTCOMES[outcome];
}

/**
 * The answer to a subscription's next scheduled charge: a forced outcome while one is set (using
 * up one of its `times`), else the line's test number.
 */
export function takeChargeOutcome(
  subscription: SubscriptionRecord,
  config: Pick<SandboxConfig, 'testNumbers'>,
  attempt: number,
): ChargeOutcome {
  const override = subscription.renewalOverride;
  if (!override) return scheduledChargeOutcome(config, subscription.payment.msisdn, attempt);
  if (override.remaining !== null) {
    override.remaining--;
    if (override.remaining <= 0) subscription.renewalOverride = null;
  }
  return override.outcome;
}
