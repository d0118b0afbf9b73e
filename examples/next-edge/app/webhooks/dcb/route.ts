// The service's webhooks on the Edge runtime: verified on Web Crypto, de-duplicated, decided and
// stored by @dcbkit/core/web's handler, which imports no node builtin.
//
// The store lives in this module's memory: on the Edge runtime each route is a bundle of its own,
// so only this module sees it, and it is gone with the isolate. Enough to show the webhook applied
// once; a shop keeps entitlements in a store that outlives the isolate and that its other routes
// read too (docs/nextjs.md, "Which runtime for what").
import { createWebhookHandler, memoryLedger, memoryStore } from '@dcbkit/core/web';
import { createNextWebhook } from '@dcbkit/next';
import { signedInAccount } from '../../../lib/account';
import { offers } from '../../../lib/offers';

export const runtime = 'edge';

const store = memoryStore();
const ledger = memoryLedger();

// Made at the first delivery, when DCB_WEBHOOK_SECRET is there (several, comma-separated, while rotating).
export const POST = createNextWebhook(() =>
  createWebhookHandler({ secrets: process.env.DCB_WEBHOOK_SECRET?.split(',') ?? [], store, ledger, offers }),
);

/** GET /webhooks/dcb?product=prod_day_pass: what the signed-in account holds of the product, as the webhook stored it. */
export async function GET(request: Request): Promise<Response> {
  const account = signedInAccount(request);
  if (account === undefined) return Response.json({ error: 'sign in first' }, { status: 401 });
  const product = new URL(request.url).searchParams.get('product') ?? '';
  return Response.json({ entitlement: (await store.get(account, product)) ?? null });
}
