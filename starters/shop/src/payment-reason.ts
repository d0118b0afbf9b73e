/** The service's codes the shop has words for (locales: return.reason.*). */
const REASONS = new Set(['PAY-101', 'PAY-103', 'SBR-102', 'SBR-104', 'RSK-101', 'CAT-109', 'SUB-108']);

/**
 * Why a payment did not go through, as the key of the shop's words (`return.reason.*`): the
 * service's `failureCode` when the shop has words for it, else the status (FAILED, EXPIRED, CANCELED).
 */
export function paymentReason(status: string, failureCode: string | undefined): string {
  return failureCode !== undefined && REASONS.has(failureCode) ? failureCode : status;
}
