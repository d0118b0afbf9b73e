import type { WebhookEvent } from '../schemas/webhook-event.js';
import { findNodeCrypto } from './node-crypto.js';
import type { VerifyWebhookOptions } from './verify-checks.js';
import { verifyOnNodeCrypto } from './verify-webhook.js';
import { verifyWithWebCrypto } from './verify-with-web-crypto.js';

/**
 * {@link verifyWebhook} for any runtime, edge functions included: the same checks, codes and
 * messages, returned as a promise (every refusal is a rejection, never a synchronous throw).
 * It uses node's crypto where the runtime has it (Node, Bun, Deno), as fast as verifyWebhook, and
 * Web Crypto elsewhere (Cloudflare Workers, the Next.js Edge runtime, a browser).
 *
 * @example
 * // An edge function (Next.js `export const runtime = 'edge'`, a Cloudflare Worker):
 * export async function POST(request: Request) {
 *   try {
 *     const event = await verifyWebhookAsync({
 *       rawBody: new Uint8Array(await request.arrayBuffer()),
 *       signature: request.headers.get('service-signature'),
 *       secrets: process.env.DCB_WEBHOOK_SECRET!,
 *     });
 *     return Response.json({ received: event.event });
 *   } catch (error) {
 *     if (error instanceof WebhookVerificationError) return Response.json({ error: error.code }, { status: 401 });
 *     throw error;
 *   }
 * }
 */
export async function verifyWebhookAsync(options: VerifyWebhookOptions): Promise<WebhookEvent> {
  return findNodeCrypto() === undefined
    ? verifyWithWebCrypto(options, 'verifyWebhookAsync')
    : verifyOnNodeCrypto(options, 'verifyWebhookAsync');
}
