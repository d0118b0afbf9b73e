// A webhook receiver on an edge runtime (a Cloudflare Worker; the same code is a Next.js Edge route
// handler's POST): verifyWebhookAsync verifies on Web Crypto, as the runtime has no node:crypto.
import { verifyWebhookAsync, WebhookVerificationError } from '@dcbkit/core/webhooks';

interface Env {
  /** The environment's webhook secret; several, comma-separated, while rotating. */
  DCB_WEBHOOK_SECRET: string;
}

// A body that is signed but not an event is the request's fault (400); every other refusal means
// the request did not prove it came from the service (401), except a body handed over parsed,
// which is this code's own bug (500).
const STATUS: Partial<Record<WebhookVerificationError['code'], number>> = {
  body_not_json: 400,
  event_invalid: 400,
  body_not_raw: 500,
};

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    try {
      const event = await verifyWebhookAsync({
        rawBody: new Uint8Array(await request.arrayBuffer()), // the exact bytes, never request.json()
        signature: request.headers.get('service-signature'),
        secrets: env.DCB_WEBHOOK_SECRET.split(','),
      });
      // Verified: hand it on (a queue, your origin's API…) and answer 2xx quickly.
      return Response.json({ received: event.event, paymentUid: event.paymentUid ?? null });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return Response.json({ error: error.code }, { status: STATUS[error.code] ?? 401 });
    }
  },
};
