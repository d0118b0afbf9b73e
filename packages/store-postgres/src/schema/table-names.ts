import { StorePostgresError } from '../errors/store-postgres-error.js';

/** Where the tables live: a schema and a prefix for their names. */
export interface TableNameOptions {
  /** The schema holding the tables; created by migrate when missing. Default `public`. */
  schema?: string;
  /** Put before each table name. Default `dcbkit_`. */
  tablePrefix?: string;
}

/** Quoted, schema-qualified names, ready to put in SQL. */
export interface TableNames {
  readonly schema: string;
  readonly prefix: string;
  /** The quoted schema, for CREATE SCHEMA. */
  readonly quotedSchema: string;
  readonly entitlements: string;
  readonly events: string;
  readonly migrations: string;
  /** Payments not settled yet: the checkout to continue, and what reconciliation reads. */
  readonly pendingPayments: string;
  /** Named locks held under a lease (tryLock). */
  readonly locks: string;
  /** The payments updates recorded (core's EntitlementFacts), one row each, beside the entitlements. */
  readonly entitlementPayments: string;
  /** The orders consumable units were bought by (core's EntitlementFacts), one row each. */
  readonly entitlementUnits: string;
  /** The history of every decision (core's HistoryStore), one row per entry. */
  readonly history: string;
  /** The business view's daily totals (core's MetricsStore). */
  readonly metricDays: string;
  /** The key of every fact the totals counted. */
  readonly metricKeys: string;
  /** An index name, quoted and unqualified (CREATE INDEX takes it so). */
  index(name: string): string;
}

// Lowercase only: a mixed-case name would need quoting in every psql session forever after.
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
// PostgreSQL truncates identifiers beyond 63 bytes: two long names could then collide silently.
const MAX_IDENTIFIER_BYTES = 63;
// The longest table or index name after the prefix: every other one is shorter.
const LONGEST_SUFFIX = 'entitlements_subscription_idx';

function quote(identifier: string): string {
  return `"${identifier}"`;
}

/**
 * Validates the schema and prefix (plain lowercase identifiers, never from user input anyway) and
 * builds the quoted names: whatever a caller passes can never become SQL.
 */
export function tableNames(options: TableNameOptions = {}): TableNames {
  const { schema = 'public', tablePrefix = 'dcbkit_' } = options;
  if (typeof schema !== 'string' || !IDENTIFIER.test(schema) || schema.length > MAX_IDENTIFIER_BYTES) {
    throw new StorePostgresError(
      'dcbkit store',
      'schema',
      `must be a lowercase SQL identifier (letters, digits, _; not starting with a digit; at most ${MAX_IDENTIFIER_BYTES} characters), got ${JSON.stringify(schema)}.`,
    );
  }
  if (schema.startsWith('pg_')) {
    throw new StorePostgresError(
      'dcbkit store',
      'schema',
      'must not start with pg_ (reserved by PostgreSQL).',
    );
  }
  const longest = tablePrefix + LONGEST_SUFFIX;
  if (
    typeof tablePrefix !== 'string' ||
    (tablePrefix !== '' && !IDENTIFIER.test(tablePrefix)) ||
    longest.length > MAX_IDENTIFIER_BYTES
  ) {
    throw new StorePostgresError(
      'dcbkit store',
      'tablePrefix',
      `must be empty or a lowercase SQL identifier short enough that ${JSON.stringify(longest)} fits in ${MAX_IDENTIFIER_BYTES} characters, got ${JSON.stringify(tablePrefix)}.`,
    );
  }
  const qualified = (table: string) => `${quote(schema)}.${quote(tablePrefix + table)}`;
  return {
    schema,
    prefix: tablePrefix,
    quotedSchema: quote(schema),
    entitlements: qualified('entitlements'),
    events: qualified('events'),
    migrations: qualified('migrations'),
    pendingPayments: qualified('pending_payments'),
    locks: qualified('locks'),
    entitlementPayments: qualified('entitlement_payments'),
    entitlementUnits: qualified('entitlement_units'),
    history: qualified('history'),
    metricDays: qualified('metric_days'),
    metricKeys: qualified('metric_keys'),
    index: (name: string) => quote(tablePrefix + name),
  };
}
