/**
 * bench/webhook-verify: what verifying a webhook costs, next to the floor and the peers.
 *
 *   (a) floor        header split + HMAC-SHA256 with a cached key + timingSafeEqual + tolerance
 *   (b) floor+parse  (a) plus JSON.parse
 *   (c) peers        stripe webhooks.constructEvent, standardwebhooks Webhook.verify
 *   (d) dcbkit       verifyWebhook (signature checks, JSON.parse and event validation)
 *
 * and then, beside (d) in rounds of their own, awaited one call after another:
 *   (e) async        verifyWebhookAsync on Node: node:crypto, found at run time
 *   (f) web crypto   verifyWebhookAsync on Web Crypto, as on an edge runtime: in a worker thread
 *                    whose process.getBuiltinModule is gone before dcbkit loads
 *
 * At 0.4 KiB, 1 KiB, 64 KiB and 1 MiB. The floor caches its key as dcbkit does: a floor that
 * re-imported the key per call would make dcbkit look faster than the floor at small bodies.
 * Targets: d >= 0.8 b at every size; d faster than every peer; e >= 0.9 d (the async path costs
 * on Node about what the sync one does). (f) has no target: it says what an edge runtime's Web
 * Crypto costs, measured on Node's.
 */
import { verifyWebhook, verifyWebhookAsync } from '@dcbkit/core/webhooks';
import {
  createFloorCheck,
  formatCount,
  formatSpread,
  measure,
  nowSeconds,
  ratio,
  signBody,
  verdict,
} from '@dcbkit-bench/shared';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { asyncCandidate, measureRounds, syncCandidate } from './measure-async.js';
import { startWebCryptoThread } from './web-crypto-thread.js';

const SECRET = 'whsec_bench_0123456789abcdef0123456789';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const stripe = new Stripe('sk_test_bench');
const standard = new Webhook(`whsec_${Buffer.from(SECRET).toString('base64')}`);
const floorCheck = createFloorCheck(SECRET);

/** Sizes and how many calls one round makes: about 20-60 ms of work per candidate per round. */
const SIZES = [
  { label: '0.4 KiB', bytes: 410, iterations: 6_000 },
  { label: '1 KiB', bytes: 1024, iterations: 6_000 },
  { label: '64 KiB', bytes: 64 * 1024, iterations: 200 },
  { label: '1 MiB', bytes: 1024 * 1024, iterations: 15 },
];

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

const webCryptoThread = startWebCryptoThread();
const lines: string[] = [];
for (const { label, bytes, iterations } of SIZES) {
  const body = eventBody(bytes);
  const now = new Date();
  const t = nowSeconds();
  const signature = signBody(body, SECRET, t);
  const bodyText = body.toString('utf8');
  const stripeHeader = stripe.webhooks.generateTestHeaderString({
    payload: bodyText,
    secret: SECRET,
    timestamp: t,
  });
  const standardHeaders = {
    'webhook-id': 'msg_bench',
    'webhook-timestamp': String(t),
    'webhook-signature': standard.sign('msg_bench', now, bodyText),
  };
  const results = measure(
    [
      { name: '(a) floor', run: () => floorCheck(body, signature, t) },
      {
        name: '(b) floor+parse',
        run: () => {
          floorCheck(body, signature, t);
          return JSON.parse(body.toString('utf8'));
        },
      },
      // Both peers are handed the bytes as they take them (stripe a Buffer, standardwebhooks a string).
      { name: '(c) stripe', run: () => stripe.webhooks.constructEvent(body, stripeHeader, SECRET) },
      { name: '(c) standardwebhooks', run: () => standard.verify(bodyText, standardHeaders) },
      { name: '(d) dcbkit', run: () => verifyWebhook({ rawBody: body, signature, secrets: SECRET, now }) },
    ],
    { iterations, rounds: ROUNDS },
  );

  lines.push(
    '',
    `body ${label} (${bytes.toLocaleString('en')} B), ${iterations.toLocaleString('en')} calls per round`,
  );
  for (const result of results.values()) {
    const { min, max } = result.spread;
    lines.push(
      `  ${result.name.padEnd(22)} ${formatCount(result.nsPerOp, 10)} ns/op (${formatCount(min)}–${formatCount(max)}) ${formatCount(result.opsPerSecond, 10)} ops/s   CPU ${formatCount(result.cpuSpread.median, 10)} ns/op`,
    );
  }
  const dcbkit = '(d) dcbkit';
  const both = (label: string, reference: string, target: number, comparison: '>=' | '>' = '>=') =>
    `  ${verdict(label, ratio(results, dcbkit, reference), target, comparison)}; by CPU ${ratio(results, dcbkit, reference, 'cpu').median.toFixed(3)}`;
  lines.push(
    both('(d)/(b) dcbkit vs floor+parse', '(b) floor+parse', 0.8),
    both('(d)/stripe', '(c) stripe', 1, '>'),
    both('(d)/standardwebhooks', '(c) standardwebhooks', 1, '>'),
    `        (d)/(a) dcbkit vs floor without parse: ${ratio(results, dcbkit, '(a) floor').median.toFixed(3)}; by CPU ${ratio(results, dcbkit, '(a) floor', 'cpu').median.toFixed(3)}`,
  );

  const options = { rawBody: body, signature, secrets: SECRET, now };
  const asyncResults = await measureRounds(
    [
      syncCandidate('(d) verifyWebhook', () => verifyWebhook(options)),
      asyncCandidate('(e) verifyWebhookAsync', () => verifyWebhookAsync(options)),
      await webCryptoThread.candidate('(f) on Web Crypto', {
        body: new Uint8Array(body),
        signature,
        secret: SECRET,
        nowMs: now.getTime(),
      }),
    ],
    { iterations, rounds: ROUNDS },
  );
  lines.push('  async, in rounds of its own beside (d):');
  for (const result of asyncResults.values()) {
    const { min, max } = result.spread;
    lines.push(
      `  ${result.name.padEnd(22)} ${formatCount(result.nsPerOp, 10)} ns/op (${formatCount(min)}–${formatCount(max)}) ${formatCount(result.opsPerSecond, 10)} ops/s   CPU ${formatCount(result.cpuSpread.median, 10)} ns/op`,
    );
  }
  const versusSync = (name: string) => ratio(asyncResults, name, '(d) verifyWebhook');
  lines.push(
    `  ${verdict('(e)/(d) async vs sync, node:crypto', versusSync('(e) verifyWebhookAsync'), 0.9)}; by CPU ${ratio(asyncResults, '(e) verifyWebhookAsync', '(d) verifyWebhook', 'cpu').median.toFixed(3)}`,
    `        (f)/(d) Web Crypto vs sync: ${formatSpread(versusSync('(f) on Web Crypto'))}; by CPU ${ratio(asyncResults, '(f) on Web Crypto', '(d) verifyWebhook', 'cpu').median.toFixed(3)}`,
  );
}
console.log(`bench/webhook-verify  node ${process.version}`);
console.log(
  `  method: in process, unpinned; per size a warm-up of every candidate, then ${ROUNDS} rounds, each running every candidate in rotating order; ratio = throughput share from wall time (the verdict) and from process CPU time (steadier on a busy machine), paired per round, median (min, max)`,
);
console.log(
  '  async: (e) and (f) are awaited one call after another, (f) in a worker thread without process.getBuiltinModule (its rounds are timed there, the order still rotating with the others)',
);
console.log(lines.join('\n'));
await webCryptoThread.close();
