import { createClient, silentLogger } from '@dcbkit/core';
import type { Sandbox } from '../start/start-sandbox.js';
import { createCheckoutDriver } from '../testing/checkout-driver.js';

const DAY = 86_400;

/**
 * Drives a sandbox through a story that makes every event kind the service sends, and returns
 * the first event of each kind (its payload, as the emulator posts it). Days are advanced one by
 * one on the sandbox's frozen clock. The accounts are in metadata.accountKey.
 */
export async function plantEveryEventKind(sandbox: Sandbox): Promise<Map<string, Record<string, unknown>>> {
  const client = createClient({
    environment: 'sandbox',
    baseUrl: sandbox.apiBaseUrl,
    clientId: sandbox.credentials.clientId,
    clientSecret: sandbox.credentials.clientSecret,
    now: () => sandbox.clock.now(),
    logger: silentLogger,
  });
  const checkout = createCheckoutDriver(sandbox);
  const buy = async (accountKey: string, offerUid: string, msisdn: string) => {
    const payment = await client.payments.create({
      mode: 'HOSTED',
      offerUid,
      returnUrl: 'https://partner.example/billing/return',
      metadata: { accountKey },
    });
    await checkout.pay(payment.checkoutUrl, { msisdn });
    return (await client.payments.retrieve(payment.paymentUid)).subscriptionUid ?? '';
  };
  const days = async (count: number) => {
    for (let day = 0; day < count; day++) await sandbox.advanceClock(DAY);
  };

  // A trial that converts, is cancelled at its period's end and expires; a paid subscription
  // whose renewal fails until it is suspended; one cancelled now; a trial that never converts;
  // a declined charge; a day pass and the full unlock.
  const trial = await buy('acct_trial', 'offer_premium_monthly', '+21620000000');
  const lapsing = await buy('acct_lapsing', 'offer_premium_monthly_paid', '+21620000401');
  const cancelled = await buy('acct_cancelled', 'offer_premium_monthly_paid', '+21620000000');
  await buy('acct_never_paid', 'offer_premium_monthly', '+21620000101');
  await buy('acct_pass', 'offer_day_pass', '+21620000000');
  await buy('acct_unlock', 'offer_full_unlock', '+21620000000');
  const declined = await client.payments.create({
    mode: 'HOSTED',
    offerUid: 'offer_day_pass',
    returnUrl: 'https://partner.example/billing/return',
    metadata: { accountKey: 'acct_declined' },
  });
  await checkout.fail(declined.checkoutUrl, { because: 'DECLINED' });
  await client.subscriptions.cancel(cancelled, { when: 'NOW' });
  await days(8); // the trial's reminder and conversion
  await client.subscriptions.cancel(trial, { when: 'PERIOD_END' });
  await days(30); // the lapsing renewal fails; the cancelled trial's period ends
  await days(4); // grace runs out
  void lapsing;

  const first = new Map<string, Record<string, unknown>>();
  for (const delivery of sandbox.webhooks()) {
    const payload = delivery.payload as unknown as Record<string, unknown>;
    const name = String(payload.event);
    if (!first.has(name)) first.set(name, payload);
  }
  return first;
}
