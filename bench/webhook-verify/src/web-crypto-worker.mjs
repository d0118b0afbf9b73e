/**
 * verifyWebhookAsync as an edge runtime runs it: in a worker thread whose process.getBuiltinModule
 * is gone before dcbkit loads, so that it finds no node:crypto and verifies on Web Crypto. The main
 * thread (web-crypto-thread.ts) sends an input, then asks for timed rounds. Plain JavaScript: tsx's
 * loader is the main thread's alone.
 */
import { parentPort } from 'node:worker_threads';

delete process.getBuiltinModule;
const webhooks = await import('@dcbkit/core/webhooks');

const cpuClock = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
};

/** 'ok' when the synchronous verifyWebhook finds no node:crypto here. */
function proveWebCrypto() {
  try {
    webhooks.verifyWebhook({ rawBody: '{}', signature: 't=1,v1=00', secrets: 'x' });
    return 'node:crypto was found';
  } catch (error) {
    return webhooks.isDcbError(error, 'crypto_unavailable') ? 'ok' : String(error);
  }
}

let options;
parentPort.on('message', async (request) => {
  if (request.input !== undefined) {
    const { body, signature, secret, nowMs } = request.input;
    options = { rawBody: body, signature, secrets: secret, now: new Date(nowMs) };
    const event = await webhooks.verifyWebhookAsync(options);
    parentPort.postMessage({ ready: event.event, webCrypto: proveWebCrypto() });
    return;
  }
  const { iterations } = request;
  const cpuStart = cpuClock();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await webhooks.verifyWebhookAsync(options);
  parentPort.postMessage({
    wallNs: Number(process.hrtime.bigint() - start) / iterations,
    cpuNs: (cpuClock() - cpuStart) / iterations,
  });
});
