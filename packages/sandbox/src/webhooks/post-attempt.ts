import { SIGNATURE_HEADER, signWebhook } from '@dcbkit/core/webhooks';
import { STALE_SIGNATURE_AGE_SECONDS } from './delivery-chaos.js';
import type { DeliveryAttempt, WebhookDelivery } from './delivery-record.js';

const RESPONSE_BODY_LIMIT = 2048;

export type AttemptKind = 'scheduled' | 'replay' | 'duplicate';

/** One attempt as the outbox decided it: where, with which secret, and whether signed stale. */
export interface AttemptPlan {
  kind: AttemptKind;
  url: string;
  secret: string;
  stale: boolean;
  /** The sandbox time of the attempt. */
  at: Date;
  /** The time put in Service-Signature (see WebhookOutboxOptions.signatureTime). */
  signatureTime: Date;
}

export interface PostOptions {
  fetch: typeof fetch;
  timeoutMs: number;
  /** Aborted when the sandbox closes. */
  closing: AbortSignal;
  log: (line: string) => void;
}

/** Signs the event, records the attempt on the delivery, POSTs it and records the answer. */
export async function postAttempt(
  delivery: WebhookDelivery,
  plan: AttemptPlan,
  options: PostOptions,
): Promise<DeliveryAttempt> {
  const { kind, url, stale } = plan;
  const signedAt = plan.signatureTime.getTime() - (stale ? STALE_SIGNATURE_AGE_SECONDS * 1000 : 0);
  const signature = signWebhook({
    payload: delivery.body,
    secret: plan.secret,
    timestamp: new Date(signedAt),
  });
  const attempt: DeliveryAttempt = {
    number: delivery.attempts.length + 1,
    replay: kind === 'replay',
    chaos: stale ? 'stale-signature' : kind === 'duplicate' ? 'duplicate' : null,
    at: plan.at.toISOString(),
    url,
    signature,
    httpStatus: null,
    error: null,
    responseBody: null,
    ok: false,
  };
  delivery.attempts.push(attempt);
  try {
    const response = await options.fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signature,
        'user-agent': 'dcbkit-sandbox',
      },
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.closing]),
    });
    attempt.httpStatus = response.status;
    attempt.responseBody = (await response.text()).slice(0, RESPONSE_BODY_LIMIT);
    // Counted only once the whole answer arrived: a receiver that stalls mid-answer timed out.
    attempt.ok = response.status >= 200 && response.status < 300;
  } catch (error) {
    attempt.error = describeFailure(error, options.timeoutMs);
  }
  options.log(
    `webhook ${delivery.event} ${delivery.id} attempt ${attempt.number}${kind === 'scheduled' ? '' : ` (${kind})`}${stale ? ' (stale signature)' : ''}: ` +
      (attempt.httpStatus !== null ? `HTTP ${attempt.httpStatus}` : (attempt.error ?? 'failed')),
  );
  return attempt;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  if (error instanceof Error && error.name === 'AbortError') return 'aborted: the sandbox is closing';
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error instanceof Error ? `${error.message}${cause}` : String(error);
}
