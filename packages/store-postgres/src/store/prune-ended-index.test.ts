import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStore } from '../connect/create-sql-store.js';
import { fromPglite } from '../executor/from-pglite.js';
import { uniqueSchema } from '../test-support/database.js';
import { openPglite } from '../test-support/pglite.js';
import { storeStatements } from './store-statements.js';

// Pruning ended checkouts runs after every reconciliation over a table that grows with each
// checkout: it must find the ended rows by the partial index, not read the whole table.

describe('pruneEndedPayments on PGlite', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await openPglite();
  }, 60_000);
  afterAll(() => db?.close());

  it('deletes the rows ended before the cut-off through the ended index', async () => {
    const executor = fromPglite(db);
    const { store, tables, migrate } = createSqlStore(executor, { schema: uniqueSchema('prune_ended') });
    await migrate();
    const payment = (paymentUid: string) => ({
      paymentUid,
      accountKey: 'acct_1',
      productUid: 'prod_a',
      offerUid: 'off_a',
      recordedAt: '2030-01-01T00:00:00.000Z',
    });
    for (const uid of ['pay_old', 'pay_new', 'pay_open']) await store.recordPendingPayment(payment(uid));
    await store.endPendingPayment?.('pay_old', { status: 'FAILED', at: '2030-01-01T00:05:00.000Z' });
    await store.endPendingPayment?.('pay_new', { status: 'SUCCEEDED', at: '2030-03-01T00:00:00.000Z' });
    expect(await store.pruneEndedPayments?.(new Date('2030-02-01T00:00:00.000Z'))).toBe(1);
    expect((await store.listPendingPaymentsOfAccount('acct_1')).map((kept) => kept.paymentUid)).toEqual([
      'pay_new',
      'pay_open',
    ]);
    // With the table too small to be worth an index, forbid a sequential scan: the plan then
    // shows whether the index can serve the delete at all.
    const plan = await executor.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN ${storeStatements(tables).pruneEnded}`,
        ['2030-02-01T00:00:00.000Z'],
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(
      /Index (Only )?Scan using \w*pending_payments_ended_idx|Bitmap Index Scan on \w*pending_payments_ended_idx/,
    );
  });
});
