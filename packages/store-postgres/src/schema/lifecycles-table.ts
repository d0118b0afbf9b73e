import type { TableNames } from './table-names.js';

/** The lifecycle records' table (migration 15), named beside the others by the same schema and prefix. */
export function lifecyclesTable(t: TableNames): string {
  return `${t.quotedSchema}."${t.prefix}subscription_lifecycles"`;
}
