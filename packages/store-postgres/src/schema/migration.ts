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
