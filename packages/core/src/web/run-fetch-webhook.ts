import { refuseUnknownOptions } from '../errors/unknown-options.js';
import { answerForBodyError } from '../webhooks/body-refusal.js';
import type { WebhookHandler } from '../webhooks/create-webhook-handler.js';
import { isBytes, type RawBody } from '../webhooks/raw-body.js';
import { readRequestBody } from './read-request-body.js';
import { responseOf } from './response-of.js';

export interface FetchWebhookOptions {
  /**
   * Bytes your framework already read and kept (Hono's `await c.req.arrayBuffer()`, say), used as
   * they are. Without them the request's own body is read.
   */
  kept?: string | Uint8Array | undefined;
  /** One sentence telling the partner how to mount the route when the body was read before it. */
  mountingHint?: string;
}

const MOUNTING_HINT =
  'Hand the Request to the webhook before anything reads its body (request.json(), request.text(), ' +
  "a framework's body parser), or pass the bytes that code kept as `kept`.";

/**
 * Runs the webhook handler on a fetch Request, on any runtime: reads the exact body bytes within
 * the handler's `maxBodyBytes` (413 on the Content-Length or as the stream passes it) and
 * `bodyTimeoutMs` (408), hands them over with the headers, and answers with a Response. A body
 * something else already read is answered 500 at once (`body_not_raw`), with one error in the log
 * saying how to fix it: never a re-serialised body, never a hang.
 *
 * @example
 * // A Hono route, with a body some middleware may have read and kept:
 * app.post('/webhooks/dcb', (c) => runFetchWebhook(kit.webhook, c.req.raw));
 */
export async function runFetchWebhook(
  handler: WebhookHandler,
  request: Request,
  options: FetchWebhookOptions = {},
): Promise<Response> {
  let rawBody: RawBody;
  if (typeof options.kept === 'string' || isBytes(options.kept)) {
    // The handler answers 413 for kept bytes above its limit.
    rawBody = options.kept;
  } else {
    try {
      rawBody = await readRequestBody(request, {
        maxBytes: handler.maxBodyBytes,
        timeoutMs: handler.bodyTimeoutMs,
      });
    } catch (error) {
      return responseOf(answerForBodyError(handler, error, options.mountingHint ?? MOUNTING_HINT));
    }
  }
  return responseOf(await handler({ rawBody, headers: headersOf(request) }));
}

/**
 * The service's webhooks as a fetch handler, `(request) => Promise<Response>`: a Worker's or Deno's
 * `fetch`, a Next.js route handler's `POST`, Bun.serve's `fetch`. Verification runs on node's
 * crypto where the runtime has it and on Web Crypto elsewhere, chosen by the handler itself.
 *
 * @example
 * const webhook = createFetchWebhook(createWebhookHandler({ secrets, store, ledger, offers }));
 * export default { fetch: (request: Request) => webhook(request) };
 */
export function createFetchWebhook(
  handler: WebhookHandler,
  options: Pick<FetchWebhookOptions, 'mountingHint'> = {},
): (request: Request) => Promise<Response> {
  refuseUnknownOptions('createFetchWebhook', options, { mountingHint: true });
  return (request) => runFetchWebhook(handler, request, options);
}

/** Header names lowercased (as Headers gives them), a repeated header's values joined by ", ". */
function headersOf(request: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}
