import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { RoundTimes, TimedCandidate } from './measure-async.js';

/** One delivery for the worker to verify, over and over. */
export interface WebCryptoInput {
  body: Uint8Array;
  signature: string;
  secret: string;
  nowMs: number;
}

/** Candidates whose rounds run in web-crypto-worker.mjs: verifyWebhookAsync on Web Crypto. */
export interface WebCryptoThread {
  candidate(name: string, input: WebCryptoInput): Promise<TimedCandidate>;
  close(): Promise<void>;
}

export function startWebCryptoThread(): WebCryptoThread {
  const worker = new Worker(new URL('./web-crypto-worker.mjs', import.meta.url));
  const ask = async <T>(request: { input: WebCryptoInput } | { iterations: number }): Promise<T> => {
    worker.postMessage(request);
    const [answer] = await once(worker, 'message');
    return answer as T;
  };
  return {
    async candidate(name, input) {
      const { ready, webCrypto } = await ask<{ ready: string; webCrypto: string }>({ input });
      if (webCrypto !== 'ok') throw new Error(`the worker thread is not on Web Crypto: ${webCrypto}`);
      if (ready !== 'payment.succeeded') throw new Error(`the worker thread verified ${ready}`);
      return { name, round: (iterations) => ask<RoundTimes>({ iterations }) };
    },
    async close() {
      await worker.terminate();
    },
  };
}
