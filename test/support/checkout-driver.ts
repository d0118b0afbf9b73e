import type { Sandbox } from '@dcbkit/sandbox';
import { CheckoutBrowser } from '@dcbkit/sandbox/testing';

/**
 * Pays on the sandbox's checkout pages the way a person would, by PIN on Wi-Fi, and returns the
 * URL the checkout sent the browser back to (the partner's return URL).
 */
export async function payOnCheckout(
  sandbox: Sandbox,
  checkoutUrl: string,
  msisdn = '+21620000000',
): Promise<URL> {
  const browser = new CheckoutBrowser(sandbox.checkoutBaseUrl);
  const numberStep = await browser.open(checkoutUrl);
  const pinStep = await browser.submit(numberStep, '/number', { msisdn, network: 'WIFI' });
  const paymentUid = new URL(checkoutUrl).pathname.split('/').pop() ?? '';
  const [latest] = sandbox.sms({ paymentUid }).filter((message) => message.direction === 'MT');
  const pin = latest?.text.match(/^[0-9]+/)?.[0];
  if (!pin) throw new Error(`no PIN was texted for ${paymentUid}`);
  const done = await browser.submit(pinStep, '/consent/pin', { pin });
  if (!done.leftTo) throw new Error(`the checkout did not return; it shows ${done.url}`);
  return new URL(done.leftTo);
}
