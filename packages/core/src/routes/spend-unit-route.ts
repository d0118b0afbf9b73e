import { consumeUnitAt } from '../access/consume-unit.js';
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

/**
 * Spends one unit of a consumable, atomically in the store: `conflict` when none is left. A unit of
 * an offer that sells time opens the product from now (or from the end of the access running) for
 * the offer's `unitAccessSeconds`, by the kit's clock.
 */
export async function spendUnit(context: RouteContext, input: RouteInput): Promise<RouteResult> {
  const { account } = guardStateChange(context, input);
  const productUid = identifier(input.fields, 'productUid');
  let entitlement: Entitlement | undefined;
  const now = context.now();
  try {
    const update = await context.store.update(account, productUid, consumeUnitAt(now));
    entitlement = update.next;
    const offer = entitlement && context.offers.get(entitlement.offerUid);
    if (entitlement && offer) await context.recordFacts?.([unitSpentEntry(entitlement, offer, now)]);
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
    view: {
      kind: 'unit_spent',
      productUid,
      entitlement,
      unitsLeft: availableUnits(entitlement),
      accessEndsAt: entitlement?.unitAccessEndsAt ?? null,
    },
  };
}
