import { DcbError } from '@dcbkit/core';
import { runFetchWebhook, type WebhookHandler } from '@dcbkit/core/web';
import { madeOnFirstUse } from './made-on-first-use.js';
import { assertMaker, type NextRouteHandler } from './next-route.js';

const MOUNTING_HINT =
  'Export the webhook as the route handler itself (export const POST = createNextWebhook(...)), or ' +
  'read a copy of the body before it: await request.clone().json(), never request.json().';

/**
 * The service's webhooks as an App Router route handler, on the Node runtime or the Edge runtime
 * (`export const runtime = 'edge'`: the signature is then checked on Web Crypto). `makeHandler`
 * runs at the first delivery, not when Next.js imports the route, so `next build` needs no DCB_*
 * variable; its result is kept for every later request.
 *
 * @example
 * // app/webhooks/dcb/route.ts
 * export const POST = createNextWebhook(() => createWebhookHandler({ secrets, store, ledger, offers }));
 */
export function createNextWebhook(
  makeHandler: () => WebhookHandler | Promise<WebhookHandler>,
): NextRouteHandler {
  assertMaker('createNextWebhook(makeHandler)', makeHandler, 'a function that makes the webhook handler');
  if (isWebhookHandler(makeHandler)) {
    // The handler itself is a function too: called with no request it would answer nonsense.
    throw new DcbError(
      'invalid_option',
      'createNextWebhook takes a function that makes the handler at the first request, ' +
        'createNextWebhook(() => kit.webhook), not the handler: made at import, it needs the DCB_* ' +
        'variables at `next build`.',
      { details: { option: 'makeHandler' } },
    );
  }
  const handler = madeOnFirstUse(makeHandler);
  return async (request) => runFetchWebhook(await handler(), request, { mountingHint: MOUNTING_HINT });
}

function isWebhookHandler(value: unknown): value is WebhookHandler {
  return typeof value === 'function' && typeof (value as Partial<WebhookHandler>).maxBodyBytes === 'number';
}
