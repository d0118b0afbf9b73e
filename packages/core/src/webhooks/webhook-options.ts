import { optionError } from '../errors/option-error.js';
import type { CreateWebhookHandlerOptions } from './webhook-handler-types.js';

export const WHERE = 'createWebhookHandler';

/** The handler's options checked once, when it is made: a mistake is refused at startup. */
export function checkWebhookOptions(options: CreateWebhookHandlerOptions): void {
  if (typeof options !== 'object' || options === null) throw optionError(WHERE, 'options', 'are required.');
  const { secrets, store, ledger, maxBodyBytes, timeoutMs, bodyTimeoutMs } = options;
  const secretList = typeof secrets === 'string' ? [secrets] : secrets;
  if (
    !Array.isArray(secretList) ||
    secretList.length === 0 ||
    !secretList.every((s) => typeof s === 'string' && s !== '')
  ) {
    throw optionError(WHERE, 'secrets', 'must be a non-empty string or a non-empty list of them.');
  }
  if (typeof store?.update !== 'function') throw optionError(WHERE, 'store', 'must be an EntitlementStore.');
  if (typeof ledger?.claim !== 'function') throw optionError(WHERE, 'ledger', 'must be an EventLedger.');
  if (maxBodyBytes !== undefined && !(Number.isSafeInteger(maxBodyBytes) && maxBodyBytes > 0)) {
    throw optionError(WHERE, 'maxBodyBytes', 'must be a whole number of bytes > 0.');
  }
  const { linePolicy, subscriptions } = options;
  if (linePolicy !== undefined && linePolicy !== 'report' && linePolicy !== 'cancel-newer') {
    throw optionError(WHERE, 'linePolicy', "must be 'report' or 'cancel-newer'.");
  }
  if (linePolicy === 'cancel-newer' && typeof subscriptions?.cancel !== 'function') {
    throw optionError(
      WHERE,
      'subscriptions',
      "is needed for linePolicy 'cancel-newer': pass client.subscriptions.",
    );
  }
  for (const [option, value] of [
    ['timeoutMs', timeoutMs],
    ['bodyTimeoutMs', bodyTimeoutMs],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw optionError(WHERE, option, 'must be a whole number of milliseconds > 0.');
    }
  }
}
