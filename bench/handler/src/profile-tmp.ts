import { memoryLedger, memoryStore } from '@dcbkit/core';
import { createWebhookHandler } from '@dcbkit/core/web';
import { offers, SECRET, signedEvents } from './events.js';
const signedAt = new Date();
const handler = createWebhookHandler({ secrets: SECRET, store: memoryStore(), ledger: memoryLedger(), offers, now: () => signedAt, history: true });
for (let batch = 0; batch < 40; batch++) {
  const requests = signedEvents(batch * 2000, 2000, signedAt, 410);
  for (const r of requests) await handler(r);
}
