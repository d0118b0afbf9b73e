import type { HistoryEntry, MetricEntry, SubscriptionLifecycle } from '@dcbkit/core/store';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableNames } from '../schema/table-names.js';
import { DATABASE_URL } from '../test-support/database.js';
import { deferredStatements, oneStatement } from './deferred-writes.js';
import { SqlParams } from './sql-params.js';

const entry = (n: number): HistoryEntry => ({
  recordedAt: new Date(0).toISOString(),
  accountKey: `acct_${n}`,
  productUid: 'prod',
  source: 'webhook',
  decision: 'applied',
  eventName: 'payment.succeeded',
  eventKey: `key_${n}`,
  occurredAt: null,
  paymentUid: `pay_${n}`,
  subscriptionUid: null,
  statusBefore: null,
  statusAfter: 'ACTIVE',
  unitsBefore: null,
  unitsAfter: null,
});

const fact = (n: number): MetricEntry => ({
  key: `purchase:pay_${n}`,
  occurredAt: new Date(0).toISOString(),
  offerUid: 'offer',
  productUid: 'prod',
  kind: 'unit_sold',
  currency: 'TND',
  count: 1,
  amount: 2000,
  live: 0,
});

const lifecycle = (n: number): SubscriptionLifecycle => ({
  subscriptionUid: `sub_${n}`,
  accountKey: `acct_${n}`,
  productUid: 'prod',
  offerUid: 'offer',
  currency: 'TND',
  monthlyValue: 4500,
});

/** Every `$n` outside string literals, in the order they appear. */
const placeholdersIn = (sql: string) =>
  [...sql.replace(/'[^']*'/g, "''").matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));

describe('the last statement: parameters numbered as they are added', () => {
  const deferredStatement = deferredStatements(tableNames({ schema: 'deferred' }));
  const eventOf = (n: number) =>
    deferredStatement(
      { hash: 'ab', accountKey: `acct_${n}`, productUid: 'prod' },
      {
        history: [entry(n), entry(n + 1)],
        payments: [
          { paymentUid: `pay_${n}`, ending: { status: 'SUCCEEDED', at: new Date(0).toISOString() } },
          { paymentUid: `pay_${n + 1}`, ending: undefined },
        ],
      },
      [fact(n)],
      [lifecycle(n)],
    );

  it('gives each value one placeholder, $1 to $n in order, and the same text for the same shape', () => {
    const statement = eventOf(1);
    if (statement === undefined) throw new Error('expected a statement');
    const used = placeholdersIn(statement.sql);
    // 3 target + 2 × 15 history + 5 ending + 1 forgotten + 2 subscribers + 11 fact arrays.
    expect(statement.params).toHaveLength(52);
    expect([...new Set(used)].sort((a, b) => a - b)).toEqual(statement.params.map((_, n) => n + 1));
    expect(eventOf(7)?.sql).toBe(statement.sql);
    expect(statement.params[0]).toBe('ab');
  });

  it('sends a single part alone, and nothing when there is nothing to write', () => {
    const alone = deferredStatement(undefined, { history: [entry(1)], payments: [] }, []);
    expect(alone?.sql.startsWith('INSERT INTO')).toBe(true);
    expect(placeholdersIn(alone?.sql ?? '')).toEqual(Array.from({ length: 15 }, (_, n) => n + 1));
    expect(deferredStatement(undefined, { history: [], payments: [] }, [])).toBeUndefined();
  });
});

describe.skipIf(!DATABASE_URL)('the last statement, on PostgreSQL', () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  });
  afterAll(() => pool.end());

  it("keeps a '$1' inside a string literal of a later part as it is written", async () => {
    const params = new SqlParams();
    const sql = oneStatement([
      { sql: `SELECT ${params.add('first')}::text AS v` },
      { sql: `fresh AS (SELECT '$1' AS key UNION ALL SELECT ${params.add('second')}::text)`, ctes: true },
    ]);
    expect(sql).toContain("'$1'");
    const { rows } = await pool.query<{ key: string }>(sql, params.values);
    expect(rows.map((row) => row.key)).toEqual(['$1', 'second']);
  });
});
