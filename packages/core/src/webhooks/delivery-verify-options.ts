import { SIGNATURE_HEADER } from './signature-header.js';
import type { VerifyWebhookOptions } from './verify-checks.js';
import type { WebhookContext } from './webhook-context.js';
import type { WebhookRequest } from './webhook-handler-types.js';

/** What verifying a delivery checks: its bytes and signature header against the handler's secrets, now. */
export function deliveryVerifyOptions(
  context: WebhookContext,
  request: WebhookRequest,
): VerifyWebhookOptions {
  return {
    rawBody: request.rawBody,
    signature: headerValue(request.headers, SIGNATURE_HEADER),
    secrets: context.secrets,
    toleranceSeconds: context.toleranceSeconds,
    now: context.now(),
  };
}

function headerValue(
  headers: WebhookRequest['headers'],
  name: string,
): string | readonly string[] | undefined {
  const value = headers[name];
  if (value !== undefined) return value;
  for (const [header, candidate] of Object.entries(headers)) {
    if (header.toLowerCase() === name) return candidate;
  }
  return undefined;
}
