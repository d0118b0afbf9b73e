import type { HttpAnswer } from '../http/http-answer.js';
import type { WebhookContext } from './webhook-context.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

/**
 * The answer to a delivery that failed verification: 401/400 for the request's fault, logged as
 * its cause deserves; 500 for the app's own (a body not handed over raw, an unexpected error).
 */
export function verificationRefusal(context: WebhookContext, error: unknown): HttpAnswer {
  const { answers, logger, reportError } = context;
  if (!(error instanceof WebhookVerificationError)) {
    reportError(
      error,
      { source: 'webhook' },
      'dcbkit: verifying a webhook failed unexpectedly; answered 500.',
    );
    return answers.answerWith('failed', 'internal_error');
  }
  if (error.code === 'body_not_raw') {
    // The partner's mounting mistake, not the service's: say how to fix it, loudly.
    reportError(error, { source: 'webhook' }, `dcbkit: ${error.message}`);
    return answers.answerWith('failed', 'body_not_raw');
  }
  if (error.code === 'signature_mismatch') {
    // Most often this app's secret, not an attacker: said as an error, with the fix, once a minute.
    if (context.logLimit(error.code)) {
      logger.error?.(
        { code: error.code },
        'dcbkit: a webhook was refused: its signature matches none of the configured secrets (answered 401; the service retries, then dead-letters it). Check DCB_WEBHOOK_SECRET: it must be the signing secret of this environment in the console; while rotating, give both, new first: DCB_WEBHOOK_SECRET=whsec_new,whsec_old.',
      );
    }
  } else {
    logger.warn?.({ code: error.code }, `dcbkit: webhook refused (${error.code}).`);
  }
  return answers.answerWith('refused', error.code);
}
