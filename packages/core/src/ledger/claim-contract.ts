import { DcbError } from '../errors/dcb-error.js';
import type { Claim } from './event-ledger.js';

const CONTRACT = "{ status: 'new', token } or { status: 'duplicate' | 'in_progress' }";

/**
 * The claim an EventLedger answered, checked against its contract. A ledger written for the old
 * one answers the bare string `'new'`: read as a claim, it has no status, and every delivery
 * would be answered 409 in silence until the service dead-letters the event. Refused loudly
 * instead, with the code that names the contract.
 */
export function checkedClaim(answered: unknown, key: string): Claim {
  if (typeof answered === 'object' && answered !== null) {
    const { status, token } = answered as { status?: unknown; token?: unknown };
    if (status === 'duplicate' || status === 'in_progress') return answered as Claim;
    if (status === 'new' && (typeof token === 'string' || typeof token === 'number'))
      return answered as Claim;
  }
  const shown = typeof answered === 'string' ? `'${answered}'` : jsonOf(answered);
  const oldContract =
    typeof answered === 'string'
      ? ' A bare string is the old claim() contract: answer an object, give a new claim a token, and take it back in complete(key, token) and release(key, token).'
      : '';
  throw new DcbError(
    'ledger_contract_violated',
    `dcbkit: the ledger's claim() answered ${shown}, but its contract is to answer ${CONTRACT}.${oldContract} Check the ledger with runLedgerConformance from @dcbkit/core/store. Answered 500 so the service retries.`,
    { httpStatus: 500, details: { key, answered: shown } },
  );
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
