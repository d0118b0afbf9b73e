import type { OfferDefinition } from '@dcbkit/core';
import type { SandboxConfig } from './config-schema.js';

/**
 * The config's offers as core offer definitions (without the sandbox's selling fields), ready for
 * `defineOffers`, so a starter shows exactly what the sandbox sells.
 *
 * @example
 * const offers = defineOffers(offerDefinitionsOf(sandbox.config));
 */
export function offerDefinitionsOf(config: SandboxConfig): OfferDefinition[] {
  return config.offers.map(
    ({
      offerUid,
      productUid,
      name,
      type,
      price,
      billingPeriod,
      trialDays,
      gracePolicy,
      onceTrialUsed,
      unitAccessSeconds,
    }) => ({
      offerUid,
      productUid,
      name,
      type,
      price,
      billingPeriod,
      trialDays,
      gracePolicy,
      ...(onceTrialUsed === undefined ? {} : { onceTrialUsed }),
      ...(unitAccessSeconds === undefined ? {} : { unitAccessSeconds }),
    }),
  );
}
