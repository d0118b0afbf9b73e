import type { Migration } from './migration.js';
import { BUSINESS_MIGRATIONS } from './migrations-business.js';
import { ENTITLEMENT_MIGRATIONS } from './migrations-entitlements.js';
import { RECONCILIATION_MIGRATIONS } from './migrations-reconciliation.js';

export type { Migration };

/** Every step, in version order: each file holds the steps of one part of the schema. */
export const MIGRATIONS: readonly Migration[] = [
  ...ENTITLEMENT_MIGRATIONS,
  ...RECONCILIATION_MIGRATIONS,
  ...BUSINESS_MIGRATIONS,
].sort((a, b) => a.version - b.version);

export const LATEST_VERSION = MIGRATIONS.reduce((latest, m) => Math.max(latest, m.version), 0);
