#!/usr/bin/env node
// Proves @dcbkit/core/webhooks and @dcbkit/core/web in a real edge runtime: workerd, the runtime of
// Cloudflare Workers, from npm. Bundles the workers of src/ for platform neutral (as wrangler
// would), serves them with workerd on 127.0.0.1, posts signed deliveries (valid, tampered, wrong
// secret, stale, duplicate…) and checks each answer, and what the kit's worker stored. Exits 1 on
// any unexpected answer.
//
//   node examples/edge-webhook/run.mjs     (after `pnpm build`, or at least @dcbkit/core's)
//
// workerd comes with the workspace's install: a devDependency of examples/ (about 160 MB, once per store).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signWebhook } from '@dcbkit/core/webhooks';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const SECRET = 'whsec_edge_example_do_not_use';
const OLD_SECRET = 'whsec_edge_example_previous';
const STARTUP_MS = 15_000;

/**
 * The workerd binary itself, as the workspace installed it (a devDependency of examples/, from
 * npm): not the `.bin` wrapper, whose child would outlive a kill of the wrapper.
 */
async function workerdBinary() {
  // CommonJS: the path is the module's `default` export, under the namespace's own `default`.
  const workerdModule = await import('workerd');
  const binary = workerdModule.default?.default ?? workerdModule.default;
  if (!existsSync(binary))
    throw new Error('workerd is not installed: run `npx -y pnpm@10 install` at the root');
  return binary;
}

/** Bundles each worker the way an edge bundler does: platform neutral, so a node import fails the build. */
async function bundleWorkers() {
  const result = await build({
    entryPoints: {
      worker: join(here, 'src/worker.ts'),
      'sync-probe': join(here, 'src/sync-probe.ts'),
      'kit-worker': join(here, 'src/kit-worker.ts'),
      'deadline-probe': join(here, 'src/deadline-probe.ts'),
    },
    outdir: join(here, 'dist'),
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    target: 'es2022',
    minify: true,
    metafile: true,
    logLevel: 'warning',
  });
  for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) {
    console.log(`bundled ${file.replace(/^.*examples\//, 'examples/')}: ${(bytes / 1024).toFixed(1)} KiB`);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitUntilServing(url, workerd) {
  const deadline = Date.now() + STARTUP_MS;
  while (Date.now() < deadline) {
    if (workerd.exitCode !== null) throw new Error(`workerd exited with ${workerd.exitCode}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`workerd did not answer within ${STARTUP_MS} ms`);
}

function deliveries() {
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    event: 'payment.succeeded',
    paymentUid: 'pay_edge_1',
    status: 'SUCCEEDED',
    productUid: 'premium',
    offerUid: 'premium_monthly',
    metadata: { accountKey: 'user_42', note: 'café 😀' },
    occurredAt: new Date(now * 1000).toISOString(),
  });
  const sign = (payload, secret = SECRET, timestamp = now) => signWebhook({ payload, secret, timestamp });
  return [
    { label: 'valid', body, signature: sign(body), status: 200, answer: { received: 'payment.succeeded' } },
    {
      label: 'valid, signed with the previous secret while rotating',
      body,
      signature: sign(body, OLD_SECRET),
      status: 200,
      answer: { received: 'payment.succeeded' },
    },
    {
      label: 'tampered body',
      body: body.replace('user_42', 'user_43'),
      signature: sign(body),
      status: 401,
      answer: { error: 'signature_mismatch' },
    },
    {
      label: 'wrong secret',
      body,
      signature: sign(body, 'whsec_someone_else'),
      status: 401,
      answer: { error: 'signature_mismatch' },
    },
    {
      label: 'stale (signed 10 minutes ago)',
      body,
      signature: sign(body, SECRET, now - 600),
      status: 401,
      answer: { error: 'timestamp_out_of_tolerance' },
    },
    { label: 'no signature', body, signature: undefined, status: 401, answer: { error: 'header_missing' } },
    {
      label: 'signed, but not JSON',
      body: 'not json',
      signature: sign('not json'),
      status: 400,
      answer: { error: 'body_not_json' },
    },
  ];
}

function reporter() {
  let failures = 0;
  return {
    report(ok, label, detail) {
      if (!ok) failures++;
      console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${label}: ${detail}`);
    },
    get failures() {
      return failures;
    },
  };
}

async function checkDeliveries(url, { report }) {
  for (const delivery of deliveries()) {
    const headers = { 'content-type': 'application/json' };
    if (delivery.signature !== undefined) headers['service-signature'] = delivery.signature;
    const response = await fetch(url, { method: 'POST', headers, body: delivery.body });
    const answer = await response.json().catch(() => null);
    const ok =
      response.status === delivery.status &&
      Object.entries(delivery.answer).every(([key, value]) => answer?.[key] === value);
    report(ok, delivery.label, `${response.status} ${JSON.stringify(answer)}`);
  }
}

/** A purchase of 10 credits by `account`, as the service signs it; `at` is now, in seconds. */
function creditsPurchase(account, at) {
  return JSON.stringify({
    event: 'payment.succeeded',
    paymentUid: `pay_edge_${account}`,
    status: 'SUCCEEDED',
    orderId: `ord_edge_${account}`,
    productUid: 'credits',
    offerUid: 'credits_10',
    subscriberUid: 'sbr_edge',
    metadata: { accountKey: account },
    occurredAt: new Date(at * 1000).toISOString(),
  });
}

/**
 * The kit's worker: a purchase applied, its duplicate delivery answered without a second grant, a
 * tampered one refused; then the entitlement it stored, read back: one unit bought, not two.
 */
async function checkKit(baseUrl, { report }) {
  const now = Math.floor(Date.now() / 1000);
  const body = creditsPurchase('user_7', now);
  const signature = signWebhook({ payload: body, secret: SECRET, timestamp: now });
  const post = async (payload) => {
    const response = await fetch(`${baseUrl}/webhooks/dcb`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-signature': signature },
      body: payload,
    });
    return { status: response.status, answer: await response.json().catch(() => null) };
  };
  const expectations = [
    ['valid purchase', body, 200, { received: true, outcome: 'applied' }],
    ['the same delivery again', body, 200, { received: true, outcome: 'duplicate' }],
    ['tampered (another account)', body.replace('user_7', 'user_8'), 401, { error: 'signature_mismatch' }],
  ];
  for (const [label, payload, status, expected] of expectations) {
    const { status: got, answer } = await post(payload);
    const ok = got === status && Object.entries(expected).every(([key, value]) => answer?.[key] === value);
    report(ok, label, `${got} ${JSON.stringify(answer)}`);
  }
  const held = async (account) => (await fetch(`${baseUrl}/entitlements/${account}/credits`)).json();
  const granted = await held('user_7');
  report(
    granted?.status === 'ACTIVE' && granted.unitsBought === 1,
    'stored once: user_7 holds 1 unit of credits',
    JSON.stringify(granted && { status: granted.status, unitsBought: granted.unitsBought }),
  );
  const forged = await held('user_8');
  report(forged === null, 'nothing stored for the tampered delivery', JSON.stringify(forged));
}

/**
 * The deadline probe: a delivery after another request came and went, whose store never answers,
 * is answered 503 `processing_timeout` once `timeoutMs` (300) passed, not left to hang: the
 * handler's timer is its own request's.
 */
async function checkDeadline(url, { report }) {
  const now = Math.floor(Date.now() / 1000);
  for (const [account, status, error] of [
    ['user_9', 200, undefined],
    ['stuck', 503, 'processing_timeout'],
  ]) {
    const body = creditsPurchase(account, now);
    const started = Date.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'service-signature': signWebhook({ payload: body, secret: SECRET, timestamp: now }) },
      body,
      signal: AbortSignal.timeout(5_000),
    });
    const answer = await response.json().catch(() => null);
    const elapsed = Date.now() - started;
    const ok = response.status === status && (error === undefined || answer?.error === error);
    report(ok, `a delivery for ${account}`, `${response.status} ${JSON.stringify(answer)} in ${elapsed} ms`);
  }
}

async function checkSyncProbe(url, { report }) {
  const probe = await (await fetch(url)).json();
  report(!probe.hasProcess, 'the worker has no process global', String(!probe.hasProcess));
  for (const name of ['verifyWebhook', 'signWebhook']) {
    const { code, message } = probe[name];
    report(code === 'crypto_unavailable', `${name} (synchronous)`, `${code}: ${message ?? ''}`);
  }
}

const workerd = await workerdBinary();
await bundleWorkers();
const sockets = [
  'webhook',
  'webhook-nodejs-compat',
  'sync-probe',
  'kit-webhook',
  'kit-webhook-nodejs-compat',
  'deadline-probe',
];
const ports = {};
for (const socket of sockets) ports[socket] = await freePort();
const child = spawn(
  workerd,
  ['serve', join(here, 'workerd.capnp'), ...sockets.map((s) => `--socket-addr=${s}=127.0.0.1:${ports[s]}`)],
  {
    cwd: here,
    env: { ...process.env, DCB_WEBHOOK_SECRET: `${SECRET},${OLD_SECRET}` },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
try {
  const version = spawnSync(workerd, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const url = (socket) => `http://127.0.0.1:${ports[socket]}/webhooks/dcb`;
  await waitUntilServing(url('webhook'), child);
  const results = reporter();
  console.log(`${version}: the worker, without nodejs_compat (Web Crypto), at ${url('webhook')}`);
  await checkDeliveries(url('webhook'), results);
  console.log('the same worker with nodejs_compat (node:crypto, found at run time)');
  await checkDeliveries(url('webhook-nodejs-compat'), results);
  console.log('verifyWebhook and signWebhook, synchronous, without nodejs_compat');
  await checkSyncProbe(url('sync-probe'), results);
  const base = (socket) => `http://127.0.0.1:${ports[socket]}`;
  console.log(
    "the kit's receiver (handler, memory store and ledger, createFetchWebhook), without nodejs_compat",
  );
  await checkKit(base('kit-webhook'), results);
  console.log('the same with nodejs_compat (node:crypto there, found at run time)');
  await checkKit(base('kit-webhook-nodejs-compat'), results);
  console.log('the processing deadline, with a store that never answers (timeoutMs 300)');
  await checkDeadline(url('deadline-probe'), results);
  const { failures } = results;
  console.log(failures === 0 ? 'edge-webhook: every answer as expected' : `edge-webhook: ${failures} FAILED`);
  process.exitCode = failures === 0 ? 0 : 1;
} finally {
  child.kill('SIGTERM');
}
