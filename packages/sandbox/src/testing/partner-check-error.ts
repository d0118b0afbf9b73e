import { SandboxError } from '../shared/sandbox-error.js';
import type { PartnerCheckReport, PartnerCheckResult } from './partner-check-report.js';

/**
 * - `invalid_partner_check_options`: runPartnerCheck cannot run with what it was given (`report`
 *   is undefined: nothing ran).
 * - `partner_check_failed`: the app failed one check or more; `report` has every check with its
 *   evidence, `failures` the failed ones, and the message says what to fix.
 */
export type PartnerCheckErrorCode = 'invalid_partner_check_options' | 'partner_check_failed';

/**
 * What runPartnerCheck throws. Branch on `code`; print `message` in CI: it lists each failed
 * check with what to change in the app and the first pieces of evidence.
 *
 * @example
 * try {
 *   await runPartnerCheck({ sandbox, appUrl, signIn });
 * } catch (error) {
 *   if (error instanceof PartnerCheckError && error.code === 'partner_check_failed') {
 *     console.log(error.failures.map((failure) => failure.name)); // ['signature', 'delivery']
 *   }
 *   throw error;
 * }
 */
export class PartnerCheckError extends SandboxError<PartnerCheckErrorCode> {
  static override readonly kind: string = 'PartnerCheckError';
  override readonly name: string = 'PartnerCheckError';

  constructor(
    code: PartnerCheckErrorCode,
    message: string,
    readonly report: PartnerCheckReport | undefined = undefined,
  ) {
    super(code, message);
  }

  /** The checks that failed (empty for `invalid_partner_check_options`). */
  get failures(): PartnerCheckResult[] {
    return this.report?.checks.filter((check) => check.outcome === 'failed') ?? [];
  }
}
