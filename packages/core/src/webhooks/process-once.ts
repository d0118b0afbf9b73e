import type { HttpAnswer } from '../http/http-answer.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { isLineStore } from '../store/line-store.js';
import type { DuplicateEntry, OnceStore } from '../store/once-store.js';
import { type DecidedEvent, decideClaimedEvent } from './process-event.js';
import { IN_PROGRESS_RETRY_SECONDS } from './webhook-answers.js';
import { boundTo, type DeferredUntilCommit, type WebhookContext } from './webhook-context.js';

/**
 * The one-transaction path (store/once-store.ts): the claim, the decision and every write of the
 * event commit together, its facts included, and a duplicate is answered by the statement that
 * finds it. The counters count the facts the store counted and the payment, and the listeners
 * run, after the commit; when a listener throws the key is reopened, so that the retry runs them again.
 */
export async function processOnce(
  context: WebhookContext,
  once: OnceStore<WebhookContext['store']>,
  event: WebhookEvent,
  key: string,
): Promise<HttpAnswer> {
  const { answers, counters } = context;
  let deferred: DeferredUntilCommit = { facts: [], payments: [] };
  const result = await once.applyOnce<DecidedEvent>(
    key,
    async (tx) => {
      deferred = { facts: [], payments: [] };
      const decided = await decideClaimedEvent(boundTo(context, tx, deferred), event, key);
      const { facts } = deferred;
      const kept = context.keepsMetrics && facts.length > 0 ? { facts } : {};
      return { keep: decided.keep, value: decided, target: decided.target, ...kept };
    },
    {
      timeoutMs: context.timeoutMs,
      duplicate: duplicateEntryOf(context, event, key),
      line: checkedLineOf(context, event),
    },
  );
  if (result.status === 'duplicate') return answers.accept('duplicate');
  if (result.status === 'in_progress')
    return answers.answerWith('deferred', 'in_progress', IN_PROGRESS_RETRY_SECONDS);
  if (result.status === 'applied') {
    counters.facts(context.keepsMetrics ? (result.counted ?? []) : deferred.facts);
    for (const [status, offerUid] of deferred.payments) counters.payment(status, offerUid);
  }
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

/** The line a subscription's payment is checked on (checkLine), for the store to serialize its events on. */
function checkedLineOf(context: WebhookContext, event: WebhookEvent): string | undefined {
  const checked =
    event.event === 'payment.succeeded' && event.subscriptionUid !== undefined && isLineStore(context.store);
  return checked ? event.subscriberUid : undefined;
}
