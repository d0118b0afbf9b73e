import { hasAccess } from '@dcbkit/core';
import { expect } from 'vitest';
import type { PartnerKit } from './partner-kit.js';

/**
 * Issue 22: `kit.explain` answers for every entitlement a suite made. Every account the history
 * names is explained; each entitlement's reason says what hasAccess says, and the history that
 * made it is there.
 */
export async function expectEveryEntitlementExplained(kit: PartnerKit): Promise<number> {
  const accounts = new Set((await kit.store.listHistory({ limit: 10_000 })).map((entry) => entry.accountKey));
  let explained = 0;
  for (const accountKey of accounts) {
    const answer = await kit.explain(accountKey);
    for (const entitlement of await kit.store.listByAccount(accountKey)) {
      const product = answer.products.find((candidate) => candidate.productUid === entitlement.productUid);
      expect(product?.entitlement, `${accountKey} ${entitlement.productUid}`).toEqual(entitlement);
      expect(product?.reason.hasAccess).toBe(hasAccess(entitlement, new Date(answer.at)));
      expect(product?.history.length, `history of ${accountKey} ${entitlement.productUid}`).toBeGreaterThan(
        0,
      );
      explained++;
    }
  }
  return explained;
}
