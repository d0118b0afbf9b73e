import type { Sandbox } from '@dcbkit/sandbox';
import type { Frame, Page } from 'playwright-core';

/**
 * Pays on the sandbox's checkout pages as a subscriber does, in the page itself (redirect) or in
 * its frame (embedded): types the number on Wi-Fi (so consent is by PIN), reads the PIN the mock
 * operator texted from the sandbox's SMS inbox, and confirms. Resolves once the PIN is submitted.
 */
export async function consentByPin(sandbox: Sandbox, target: Page | Frame, msisdn: string): Promise<void> {
  await target.locator('input[name=msisdn]').fill(msisdn);
  await target.locator('input[name=network][value=WIFI]').check();
  await target.locator('form[action$="/number"] button').first().click();
  await target.locator('input[name=pin]').waitFor();
  const paymentUid = new URL(target.url()).pathname.split('/')[2] ?? '';
  const pin = sandbox
    .sms({ paymentUid })
    .find((message) => message.direction === 'MT')
    ?.text.match(/^[0-9]+/)?.[0];
  if (pin === undefined) throw new Error(`no PIN was texted for ${paymentUid}`);
  await target.locator('input[name=pin]').fill(pin);
  await target.locator('form[action$="/consent/pin"] button').first().click();
}
