// The runnable example until the starters exist: signs a webhook the way the service does,
// verifies it with @dcbkit/core, then shows what each tampering is refused with.
import { signWebhook, verifyWebhook, WebhookVerificationError } from '@dcbkit/core/webhooks';

const secret = 'whsec_example_do_not_use_in_production';
const body = JSON.stringify({
  event: 'payment.succeeded',
  paymentUid: 'pay_example_1',
  status: 'SUCCEEDED',
  orderId: 'ord_example_1',
  productUid: 'premium',
  offerUid: 'premium_monthly',
  subscriberUid: 'sbr_example',
  metadata: { accountKey: 'user_42' },
  occurredAt: new Date().toISOString(),
});
const signature = signWebhook({ payload: body, secret });
console.log(`Service-Signature: ${signature}`);

const event = verifyWebhook({ rawBody: Buffer.from(body), signature, secrets: secret });
console.log(`verified ${event.event} for ${event.metadata?.accountKey} (${event.productUid})`);

const attempts = {
  'a changed body': { rawBody: body.replace('user_42', 'user_43'), signature },
  'a wrong secret': { rawBody: body, signature: signWebhook({ payload: body, secret: 'whsec_other' }) },
  'a replay from 10 minutes ago': {
    rawBody: body,
    signature: signWebhook({ payload: body, secret, timestamp: Math.floor(Date.now() / 1000) - 600 }),
  },
  'a parsed body': { rawBody: JSON.parse(body), signature },
};
for (const [label, attempt] of Object.entries(attempts)) {
  try {
    verifyWebhook({ ...attempt, secrets: secret });
    console.log(`${label}: accepted (unexpected)`);
    process.exitCode = 1;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    console.log(`${label}: refused, code ${error.code}`);
  }
}
