import { checkoutHostOf } from '../../routes/checkout-refusals.js';
import { isExpectedCheckoutUrl } from '../../routes/checkout-url.js';
import type { CheckoutProbeResult } from './checkout-probe.js';
import { type Finding, finding } from './findings.js';

/**
 * From the payment the doctor opened to the findings, without I/O: its checkout URL checked as
 * the partner routes check it (`isExpectedCheckoutUrl`) against the configured checkout host, so
 * that what the routes would refuse for a buyer is found here first.
 */
export function diagnoseCheckout(
  result: CheckoutProbeResult,
  checkoutBaseUrl: string | undefined,
): Finding[] {
  if (result.outcome === 'failed') {
    return [
      finding(
        'checkout_failed',
        `A payment for ${result.offerUid} could not be created: ${result.message}${result.code ? ` (${result.code})` : ''}.`,
      ),
    ];
  }
  const { paymentUid, checkoutUrl } = result;
  const findings: Finding[] = [];
  const received = checkoutUrl ?? '(none)';
  const host = checkoutHostOf(checkoutUrl, paymentUid);
  if (checkoutBaseUrl === undefined) {
    findings.push(
      host === null
        ? finding(
            'checkout_host_mismatch',
            `The service gave the checkout URL ${received}, which is not of the spec's shape {checkout host}/c/${paymentUid}.`,
          )
        : finding(
            'checkout_host_unset',
            `The service gave the checkout URL ${received}; DCB_CHECKOUT_BASE_URL is not set. Its host: DCB_CHECKOUT_BASE_URL=${host}.`,
          ),
    );
  } else if (!isExpectedCheckoutUrl(checkoutUrl, paymentUid, new URL(checkoutBaseUrl))) {
    const configured = checkoutBaseUrl.replace(/\/+$/, '');
    findings.push(
      finding(
        'checkout_host_mismatch',
        host === null
          ? `The service gave the checkout URL ${received}, not ${configured}/c/${paymentUid}, and not of the spec's shape either.`
          : `The service gave the checkout URL ${received}, not ${configured}/c/${paymentUid}: DCB_CHECKOUT_BASE_URL is ${configured}, the service's checkout host is ${host}. Set DCB_CHECKOUT_BASE_URL=${host}.`,
      ),
    );
  }
  if (!result.canceled) {
    findings.push(
      finding(
        'checkout_not_canceled',
        `Payment ${paymentUid} could not be cancelled: ${result.cancelError ?? 'no reason given'}.`,
      ),
    );
  }
  return findings;
}
