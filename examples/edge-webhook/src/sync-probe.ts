// Not part of the example: run.mjs serves it beside the worker to show what the synchronous
// verifyWebhook and signWebhook do on a runtime without node:crypto (a typed DcbError, never a crash).
import { isDcbError, signWebhook, verifyWebhook } from '@dcbkit/core/webhooks';

function outcome(run: () => unknown): { code: string; message: string } | { code: 'none' } {
  try {
    run();
    return { code: 'none' };
  } catch (error) {
    if (!isDcbError(error)) throw error;
    return { code: error.code, message: error.message };
  }
}

export default {
  async fetch(): Promise<Response> {
    return Response.json({
      verifyWebhook: outcome(() =>
        verifyWebhook({ rawBody: '{}', signature: 't=1,v1=00', secrets: 'whsec_x' }),
      ),
      signWebhook: outcome(() => signWebhook({ payload: '{}', secret: 'whsec_x' })),
      hasProcess: typeof (globalThis as { process?: unknown }).process !== 'undefined',
    });
  },
};
