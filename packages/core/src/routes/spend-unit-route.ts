import { consumeUnit } from '../access/consume-unit.js';
import { availableUnits } from '../access/has-access.js';
import { historyEntryOf } from '../apply/history-entry.js';
import { isDcbError } from '../errors/dcb-error.js';
import { unitSpentEntry } from '../metrics/unit-spent-entry.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { RouteInput } from './partner-route-types.js';
import type { RouteContext } from './route-context.js';
import { routeError } from './route-error.js';
import { identifier } from './route-field-values.js';
import { guardStateChange } from './route-guard.js';
import type { RouteResult } from './route-result.js';

/** Spends one unit of a consumable, atomically in the store: `conflict` when none is left. */
export async function spendUnit(context: RouteContext, input: RouteInput): Promise<RouteResult> {
  const { account } = guardStateChange(context, input);
  const productUid = identifier(input.fields, 'productUid');
  let entitlement: Entitlement | undefined;
  try {
    const update = await context.store.update(account, productUid, consumeUnit);
    entitlement = update.next;
    const offer = entitlement && context.offers.get(entitlement.offerUid);
    if (entitlement && offer)
      await context.recordFacts?.([unitSpentEntry(entitlement, offer, context.now())]);
    await context.recordHistory?.(
      historyEntryOf({
        key: { accountKey: account, productUid },
        source: 'unit_spent',
        decision: 'applied',
        update,
      }),
    );
  } catch (error) {
    if (isDcbError(error, 'no_units_left') || isDcbError(error, 'entitlement_revoked')) {
      throw routeError('conflict', 'No unit is left to use.', { cause: error });
    }
    if (isDcbError(error, 'entitlement_not_found') || isDcbError(error, 'not_consumable')) {
      throw routeError('not_found', 'No such pass.', { cause: error });
    }
    throw error;
  }
  return {
    type: 'view',
    status: 200,
    view: { kind: 'unit_spent', productUid, entitlement, unitsLeft: availableUnits(entitlement) },
  };
}
