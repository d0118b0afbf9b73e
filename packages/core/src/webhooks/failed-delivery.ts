import { isDcbError } from '../errors/dcb-error.js';
import type { HttpAnswer } from '../http/http-answer.js';
import type { ClaimToken } from '../ledger/event-ledger.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { IN_PROGRESS_RETRY_SECONDS } from './webhook-answers.js';
import type { WebhookContext } from './webhook-context.js';

/**
 * The answer when the store, the ledger or a listener threw, or the deadline passed: reported,
 * the claim released so the service's retry is processed, 500 (or 503 for a timeout). A ledger
 * that broke its claim contract answers 500 with its own code, and its message, which says what
 * to change, is the log line's.
 */
export async function answerFailedDelivery(
  context: WebhookContext,
  error: unknown,
  event: WebhookEvent,
  claimed: { key: string; token: ClaimToken } | undefined,
): Promise<HttpAnswer> {
  const timedOut = isDcbError(error, 'timeout');
  const contractBroken = isDcbError(error, 'ledger_contract_violated');
  context.reportError(
    error,
    { source: 'webhook', event: event.event },
    timedOut
      ? `dcbkit: processing ${event.event} took longer than ${context.timeoutMs} ms; answered 503 so the service retries.`
      : contractBroken
        ? error.message
        : `dcbkit: processing ${event.event} failed; answered 500 so the service retries.`,
  );
  if (claimed !== undefined) {
    await context.ledger
      .release(claimed.key, claimed.token)
      .catch((releaseError: unknown) =>
        context.logger.error?.(
          { err: releaseError },
          'dcbkit: releasing the ledger claim failed too; the retry is processed once its lease lapses.',
        ),
      );
  }
  if (timedOut) return context.answers.answerWith('failed', 'processing_timeout', IN_PROGRESS_RETRY_SECONDS);
  return context.answers.answerWith(
    'failed',
    contractBroken ? 'ledger_contract_violated' : 'processing_failed',
  );
}
