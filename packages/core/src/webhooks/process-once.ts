import type { HttpAnswer } from '../http/http-answer.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import type { DuplicateEntry, OnceStore } from '../store/once-store.js';
import { type DecidedEvent, decideClaimedEvent } from './process-event.js';
import { IN_PROGRESS_RETRY_SECONDS } from './webhook-answers.js';
import { boundTo, type WebhookContext } from './webhook-context.js';

/**
 * The one-transaction path (store/once-store.ts): the claim, the decision and every write of the
 * event commit together, and a duplicate is answered by the statement that finds it; the listeners
 * run after the commit, and when one throws the key is reopened, so that the retry runs them again.
 */
export async function processOnce(
  context: WebhookContext,
  once: OnceStore<WebhookContext['store']>,
  event: WebhookEvent,
  key: string,
): Promise<HttpAnswer> {
  const { answers } = context;
  const result = await once.applyOnce<DecidedEvent>(
    key,
    async (tx) => {
      const decided = await decideClaimedEvent(boundTo(context, tx), event, key);
      return { keep: decided.keep, value: decided, target: decided.target };
    },
    { timeoutMs: context.timeoutMs, duplicate: duplicateEntryOf(context, event, key) },
  );
  if (result.status === 'duplicate') return answers.accept('duplicate');
  if (result.status === 'in_progress')
    return answers.answerWith('deferred', 'in_progress', IN_PROGRESS_RETRY_SECONDS);
  const { listen, answer } = result.value;
  if (listen !== undefined) {
    try {
      await listen();
    } catch (error) {
      if (result.status === 'applied') await once.reopen(key, result.token);
      throw error;
    }
  }
  return answer;
}

/** A copy's history entry, as far as the event tells it; none when no history is kept. */
function duplicateEntryOf(
  context: WebhookContext,
  event: WebhookEvent,
  key: string,
): DuplicateEntry | undefined {
  if (context.recordHistory === undefined) return undefined;
  return {
    eventName: event.event,
    eventKey: key,
    occurredAt: event.occurredAt,
    paymentUid: event.paymentUid ?? null,
    subscriptionUid: event.subscriptionUid ?? null,
  };
}
