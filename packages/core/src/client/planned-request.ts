import type { HttpAnswer } from './http-transport.js';
import type { AnswerContext, AnswerReading } from './read-answer.js';

/** One logical call: the same request is sent again on each retry, key and body included. */
export interface PlannedRequest<T> {
  method: 'GET' | 'POST';
  target: string;
  headers?: Record<string, string>;
  body?: string;
  /** GET, or the create that carries its Idempotency-Key: repeating it cannot do anything twice. */
  safeToRepeat: boolean;
  read: (answer: HttpAnswer, context: AnswerContext) => AnswerReading<T>;
}
