import { BUSINESS_MIGRATIONS } from './migrations-business.js';
import { ENTITLEMENT_MIGRATIONS } from './migrations-entitlements.js';
import { RECONCILIATION_MIGRATIONS } from './migrations-reconciliation.js';
import type { TableNames } from './table-names.js';

/**
 * One step of the schema. Shipped as code (not .sql files) so that it is inside the published
 * bundle with nothing to copy, and takes the validated, quoted table names. Never edit a released
 * step: add the next one.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Single statements (both drivers run one statement per query with parameters). */
  statements(names: TableNames): readonly string[];
}

/** Every step, in version order: each file holds the steps of one part of the schema. */
export const MIGRATIONS: readonly Migration[] = [
  ...ENTITLEMENT_MIGRATIONS,
  ...RECONCILIATION_MIGRATIONS,
  ...BUSINESS_MIGRATIONS,
].sort((a, b) => a.version - b.version);

export const LATEST_VERSION = MIGRATIONS.reduce((latest, m) => Math.max(latest, m.version), 0);
