/**
 * bench/webhook-verify: what verifying a webhook costs, next to the floor and the peers.
 *
 *   (a) floor        createHmac + timingSafeEqual over the same bytes
 *   (b) floor+parse  (a) plus JSON.parse
 *   (c) peers        stripe webhooks.constructEvent, standardwebhooks Webhook.verify
 *   (d) dcbkit sig   verifyWebhookSignature (header, tolerance and signature checks)
 *   (e) dcbkit whole verifyWebhook (plus JSON.parse and event validation)
 *
 * Targets: d >= 0.9 a and e >= 0.8 b at both sizes; e faster than every peer.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { signWebhook, verifyWebhook, verifyWebhookSignature } from '@dcbkit/core';
import { measure, ratio, verdict } from '@dcbkit-bench/shared';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';

const SECRET = 'whsec_bench_0123456789abcdef0123456789';
const stripe = new Stripe('sk_test_bench');
const standardSecret = `whsec_${Buffer.from(SECRET).toString('base64')}`;
const standard = new Webhook(standardSecret);

function eventBody(size: number): Buffer {
  const event = {
    event: 'payment.succeeded',
    paymentUid: 'pay_01JBENCH0000000000000000',
    status: 'SUCCEEDED',
    orderId: 'ord_01JBENCH',
    productUid: 'prod_premium',
    offerUid: 'off_premium_monthly',
    subscriberUid: 'sbr_7f3a9c',
    metadata: { accountKey: 'user_42', note: '' },
    occurredAt: '2026-11-21T12:00:00.000Z',
  };
  event.metadata.note = 'x'.repeat(size - JSON.stringify(event).length);
  const body = Buffer.from(JSON.stringify(event));
  if (body.length !== size) throw new Error(`body is ${body.length} bytes, wanted ${size}`);
  return body;
}

const lines: string[] = [];
for (const size of [1024, 64 * 1024]) {
  const body = eventBody(size);
  const now = new Date();
  const timestamp = Math.floor(now.getTime() / 1000);
  const signature = signWebhook({ payload: body, secret: SECRET, timestamp });
  const t = String(timestamp);
  const expected = Buffer.from(signature.slice(signature.indexOf('v1=') + 3), 'hex');
  const stripeHeader = stripe.webhooks.generateTestHeaderString({
    payload: body.toString('utf8'),
    secret: SECRET,
    timestamp,
  });
  const msgId = 'msg_bench';
  const standardHeaders = {
    'webhook-id': msgId,
    'webhook-timestamp': t,
    'webhook-signature': standard.sign(msgId, now, body.toString('utf8')),
  };

  const floor = () => {
    const digest = createHmac('sha256', SECRET).update(`${t}.`).update(body).digest();
    if (!timingSafeEqual(digest, expected)) throw new Error('floor mismatch');
  };
  const results = measure(
    [
      { name: '(a) floor', run: floor },
      {
        name: '(b) floor+parse',
        run: () => {
          floor();
          return JSON.parse(body.toString('utf8'));
        },
      },
      { name: '(c) stripe', run: () => stripe.webhooks.constructEvent(body, stripeHeader, SECRET) },
      { name: '(c) standardwebhooks', run: () => standard.verify(body.toString('utf8'), standardHeaders) },
      {
        name: '(d) dcbkit sig',
        run: () => verifyWebhookSignature({ rawBody: body, signature, secrets: SECRET, now }),
      },
      {
        name: '(e) dcbkit whole',
        run: () => verifyWebhook({ rawBody: body, signature, secrets: SECRET, now }),
      },
    ],
    { iterations: size > 4096 ? 2_000 : 20_000, rounds: 15 },
  );

  lines.push('', `body ${size / 1024} KiB`);
  for (const result of results.values()) {
    lines.push(
      `  ${result.name.padEnd(22)} ${result.nsPerOp.toFixed(0).padStart(8)} ns/op ${Math.round(result.opsPerSecond).toLocaleString('en').padStart(11)} ops/s`,
    );
  }
  const whole = '(e) dcbkit whole';
  lines.push(
    `  ${verdict('(d)/(a) signature check vs floor', ratio(results, '(d) dcbkit sig', '(a) floor'), 0.9)}`,
    `  ${verdict('(e)/(b) whole vs floor+parse', ratio(results, whole, '(b) floor+parse'), 0.8)}`,
    `  ${verdict('(e)/stripe', ratio(results, whole, '(c) stripe'), 1, '>')}`,
    `  ${verdict('(e)/standardwebhooks', ratio(results, whole, '(c) standardwebhooks'), 1, '>')}`,
  );
}
console.log(`bench/webhook-verify  node ${process.version}  (median of rounds; ratio = throughput share)`);
console.log(lines.join('\n'));
