// The kit's whole webhook receiver on an edge runtime (a Cloudflare Worker): createWebhookHandler
// verifies (on Web Crypto here, found by itself), de-duplicates in the ledger, decides and stores the
// entitlement, and createFetchWebhook turns it into `(request) => Promise<Response>`. Everything
// comes from '@dcbkit/core/web', which bundles for any runtime.
import { createFetchWebhook, createWebhookHandler, memoryLedger, memoryStore } from '@dcbkit/core/web';
import { offers } from './offers.js';

interface Env {
  /** The environment's webhook secret; several, comma-separated, while rotating. */
  DCB_WEBHOOK_SECRET: string;
}

// In the isolate's memory: enough for this example, lost when the isolate goes. A real Worker
// keeps entitlements in a store that outlives it (docs/web-standard.md says which).
const store = memoryStore();
const ledger = memoryLedger();

// Made at the first request: a Worker's secrets arrive with it, in `env`.
let webhook: ((request: Request) => Promise<Response>) | undefined;

const ENTITLEMENT = /^\/entitlements\/([^/]+)\/([^/]+)$/;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/webhooks/dcb' && request.method === 'POST') {
      webhook ??= createFetchWebhook(
        createWebhookHandler({ secrets: env.DCB_WEBHOOK_SECRET.split(','), store, ledger, offers }),
      );
      return webhook(request);
    }
    // What the account holds now, for run.mjs to check (an app's own pages ask the store the same way).
    const entitlement = ENTITLEMENT.exec(pathname);
    if (entitlement !== null && request.method === 'GET') {
      const [, accountKey = '', productUid = ''] = entitlement;
      const held = await store.get(decodeURIComponent(accountKey), decodeURIComponent(productUid));
      return Response.json(held ?? null);
    }
    return new Response('Not found', { status: 404 });
  },
};
