// Not part of the example: run.mjs serves it beside the kit's worker to show that the handler's
// processing deadline (`timeoutMs`) holds on a runtime whose timers belong to the request that set
// them: a delivery whose store never answers gets its 503, after other requests came and went.
import type { EntitlementStore } from '@dcbkit/core/store';
import { createFetchWebhook, createWebhookHandler, memoryLedger, memoryStore } from '@dcbkit/core/web';
import { offers } from './offers.js';

interface Env {
  DCB_WEBHOOK_SECRET: string;
}

const inner = memoryStore();
/** The memory store, except that an update for the account `stuck` never settles (a database that stopped answering). */
const store: EntitlementStore = {
  ...inner,
  update: (accountKey, ...rest) =>
    accountKey === 'stuck' ? new Promise(() => {}) : inner.update(accountKey, ...rest),
};
let webhook: ((request: Request) => Promise<Response>) | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    webhook ??= createFetchWebhook(
      createWebhookHandler({
        secrets: env.DCB_WEBHOOK_SECRET.split(','),
        store,
        ledger: memoryLedger(),
        offers,
        timeoutMs: 300,
        logger: {},
      }),
    );
    return webhook(request);
  },
};
