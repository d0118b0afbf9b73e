import { randomBytes } from 'node:crypto';
import { SIGNATURE_HEADER, signWebhook } from '@dcbkit/core/webhooks';
import type { CheckedProduct } from './partner-check-options.js';

/** A forged event posted to the app, and what the app answered. */
export interface ForgedDelivery {
  event: string;
  accountKey: string;
  productUid: string;
  /** The app's status, or null when it did not answer. */
  status: number | null;
  responseBody: string;
}

// Not the sandbox's secret, whatever the config says: no receiver that verifies can accept it.
const FORGER_SECRET = `whsec_forged_by_the_partner_check_${randomBytes(8).toString('hex')}`;

/**
 * Posts a payment.succeeded the service never sent, signed with another secret, as an attacker
 * who found the webhook URL would: a receiver that verifies answers 4xx. The account is one none of
 * the check's own, so a receiver that grants it changes nothing the rest of the run looks at.
 */
export async function postForgedEvent(
  webhookUrl: string,
  accountKey: string,
  product: CheckedProduct,
  now: Date,
  timeoutMs: number,
): Promise<ForgedDelivery> {
  const id = randomBytes(12).toString('hex');
  const body = JSON.stringify({
    event: 'payment.succeeded',
    paymentUid: `pay_forged_${id}`,
    status: 'SUCCEEDED',
    orderId: `ord_forged_${id}`,
    productUid: product.productUid,
    offerUid: product.offerUid,
    subscriberUid: `sbr_forged_${id}`,
    metadata: { accountKey },
    occurredAt: now.toISOString(),
  });
  const forged = { event: 'payment.succeeded', accountKey, productUid: product.productUid };
  try {
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signWebhook({ payload: body, secret: FORGER_SECRET }),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { ...forged, status: response.status, responseBody: (await response.text()).slice(0, 200) };
  } catch (error) {
    return { ...forged, status: null, responseBody: String(error) };
  }
}
