import type { HttpAnswer } from '../http/http-answer.js';
import { received, refused, type WebhookOutcome } from './webhook-answers.js';
import type { DeliveryOutcome, WebhookHealthRecorder } from './webhook-health.js';

/** The handler's answers, each counted in its health as it is given. */
export interface CountedAnswers {
  /** A 200, counted as accepted or duplicate. */
  accept(outcome: WebhookOutcome): HttpAnswer;
  /** A refusal or a failure, counted under its code. */
  answerWith(
    outcome: Exclude<DeliveryOutcome, 'accepted' | 'duplicate'>,
    code: Parameters<typeof refused>[0],
    retryAfterSeconds?: number,
  ): HttpAnswer;
}

export function countedAnswers(health: WebhookHealthRecorder): CountedAnswers {
  return {
    accept(outcome) {
      health.record(outcome === 'duplicate' ? 'duplicate' : 'accepted');
      return received(outcome);
    },
    answerWith(outcome, code, retryAfterSeconds) {
      health.record(outcome, code);
      return refused(code, retryAfterSeconds);
    },
  };
}
