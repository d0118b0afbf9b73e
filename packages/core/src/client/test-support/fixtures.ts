import type { Capabilities } from '../../schemas/capabilities.js';
import type { Payment } from '../../schemas/payment.js';
import type { Subscription } from '../../schemas/subscription.js';
import type { CreateClientOptions } from '../client-options.js';

export function paymentFixture(overrides: Partial<Payment> = {}): Payment {
  return {
    object: 'payment',
    paymentUid: 'pay_01JTEST',
    mode: 'HOSTED',
    status: 'REQUIRES_ACTION',
    checkoutUrl: 'https://checkout.sandbox.example/c/pay_01JTEST',
    productUid: 'prod_premium',
    offerUid: 'off_premium_monthly',
    expiresAt: '2026-11-21T12:30:00Z',
    metadata: { userId: 'u_42' },
    ...overrides,
  };
}

export function subscriptionFixture(overrides: Partial<Subscription> = {}): Subscription {
  return {
    subscriptionUid: 'sub_01JTEST',
    status: 'ACTIVE',
    productUid: 'prod_premium',
    offerUid: 'off_premium_monthly',
    subscriberUid: 'sbr_7f3a9c',
    currentPeriodEnd: '2026-12-21T12:00:00Z',
    cancelAt: null,
    ...overrides,
  };
}

export function capabilitiesFixture(overrides: Partial<Capabilities> = {}): Capabilities {
  return {
    countryCode: 'TN',
    operator: 'ORANGE_TN',
    modes: ['HOSTED'],
    consentMethods: ['PIN', 'HEADER_ENRICHMENT'],
    operatorConsentPage: false,
    instruments: ['AIRTIME'],
    ...overrides,
  };
}

export const SANDBOX_SECRET = 'cs_sandbox_do-not-log-me_0123456789';

/** Options for a sandbox client of `baseUrl` that records its waits instead of sleeping. */
export function testClientOptions(
  baseUrl: string,
  overrides: Partial<CreateClientOptions> = {},
): { options: CreateClientOptions; delays: number[] } {
  const delays: number[] = [];
  const options: CreateClientOptions = {
    environment: 'sandbox',
    baseUrl,
    clientId: 'svc_test_app_1',
    clientSecret: SANDBOX_SECRET,
    timeoutMs: 15_000,
    // Quiet by default: the tests that read the log pass their own logger.
    logger: {},
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...overrides,
  };
  return { options, delays };
}

export const CREATE_PARAMS = {
  mode: 'HOSTED',
  offerUid: 'off_premium_monthly',
  returnUrl: 'https://partner.example/return',
} as const;
