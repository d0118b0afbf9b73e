import { batchesOf, type PgBatchClient, type PgBatches } from './pg-batches.js';

/** A checked-out client as the check uses it: pg's own, with its text queries. */
export interface CheckedClient extends PgBatchClient {
  query(query: object): unknown;
  query(text: string): Promise<{ rows: unknown[] }>;
}

/** How long the check may take: a batch that never answers means pg stopped calling what a batch overrides. */
const CHECK_TIMEOUT_MS = 5_000;
/** A transaction-local setting: still set inside the transaction BEGIN opened, gone once it ended. */
const MARK = 'dcbkit.batch_check';
const setMark = { text: `SELECT set_config('${MARK}', $1, true) AS v`, values: ['begun'] };
const readMark = `SELECT current_setting('${MARK}', true) AS v`;

/** What the check found: batches behave, they differ (use none), or a step failed otherwise (ask again). */
export type BatchVerdict = 'behaves' | 'differs' | 'unknown';

/** The answer a step expected and did not get. */
class Differs extends Error {}

const expectRows = (rows: unknown[], expected: object[]) => {
  if (JSON.stringify(rows) !== JSON.stringify(expected)) throw new Differs(JSON.stringify(rows));
};

/** A statement expected to fail with `code`. */
async function expectFailure(sent: Promise<unknown>, code: string): Promise<void> {
  const failed = await sent.then(
    () => undefined,
    (error: unknown) => error as { code?: unknown },
  );
  if (failed === undefined) throw new Differs(`answered where ${code} was expected`);
  // No SQLSTATE, or a connection exception (08) or operator intervention (57): the connection's failure.
  if (typeof failed.code !== 'string' || /^(08|57)/.test(failed.code)) throw failed;
  if (failed.code !== code) throw new Differs(`${failed.code} where ${code} was expected`);
}

/**
 * What the executor relies on, on this connection: BEGIN's batch answers its statement (not
 * BEGIN) and leaves a transaction open; a last statement that fails leaves COMMIT unrun (the
 * transaction stays failed until ROLLBACK); a last statement that succeeds is answered and
 * committed with COMMIT. Eight round trips, once per pg version in the process.
 */
async function checkSteps(client: CheckedClient, batches: PgBatches): Promise<void> {
  expectRows((await batches.beginThen(client, setMark)).rows, [{ v: 'begun' }]);
  expectRows((await client.query(readMark)).rows, [{ v: 'begun' }]);
  await expectFailure(batches.thenCommit(client, { text: 'SELECT $1::int / 0 AS n', values: [1] }), '22012');
  // in_failed_sql_transaction: COMMIT was skipped with the statement before it.
  await expectFailure(client.query('SELECT 1'), '25P02');
  await client.query('ROLLBACK');
  expectRows((await batches.beginThen(client, setMark)).rows, [{ v: 'begun' }]);
  const last = { text: `SELECT current_setting('${MARK}', true) AS v, $1::int AS n`, values: [2] };
  expectRows((await batches.thenCommit(client, last)).rows, [{ v: 'begun', n: 2 }]);
  const after = (await client.query(readMark)).rows as { v?: unknown }[];
  if (after[0]?.v === 'begun') throw new Differs('still in the transaction after COMMIT');
}

/**
 * Runs the check on `client` (idle, out of any transaction). `differs` when an answer was not the
 * one expected or the check outlived CHECK_TIMEOUT_MS; `unknown` when a step failed otherwise
 * (the connection, most likely). After anything but `behaves`, the client's state is not known:
 * release it as broken.
 */
export async function checkBatches(client: CheckedClient, batches: PgBatches): Promise<BatchVerdict> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<BatchVerdict>((resolve) => {
    timer = setTimeout(() => resolve('differs'), CHECK_TIMEOUT_MS);
  });
  const checked = checkSteps(client, batches).then(
    (): BatchVerdict => 'behaves',
    (error: unknown): BatchVerdict => (error instanceof Differs ? 'differs' : 'unknown'),
  );
  try {
    return await Promise.race([checked, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** The verdicts known, per batches (one per copy of pg in the process: batchesOf keeps one per Query class). */
const verdicts = new WeakMap<PgBatches, Promise<BatchVerdict>>();
/** The verdicts reached, to read without waiting: every transaction after the first asks. */
const settled = new WeakMap<PgBatches, 'behaves' | 'differs'>();
/** Checks that ended without a verdict (the connection failed, or a step failed otherwise), per batches. */
const unknowns = new WeakMap<PgBatches, number>();
/** After this many, the batches are taken to differ: a check that never ends cleanly must not churn connections forever. */
const MAX_UNKNOWN_CHECKS = 3;

/** Checks `client` for `batches` and keeps the verdict; an `unknown` one is forgotten, up to MAX_UNKNOWN_CHECKS. */
async function checkAndKeep(client: CheckedClient, batches: PgBatches): Promise<BatchVerdict> {
  const checking = checkBatches(client, batches).then((verdict): BatchVerdict => {
    if (verdict !== 'unknown') return verdict;
    const count = (unknowns.get(batches) ?? 0) + 1;
    unknowns.set(batches, count);
    return count >= MAX_UNKNOWN_CHECKS ? 'differs' : 'unknown';
  });
  verdicts.set(batches, checking);
  const verdict = await checking;
  if (verdict !== 'unknown') settled.set(batches, verdict);
  // A connection that failed says little about pg: the next transaction checks again.
  if (verdict === 'unknown' && verdicts.get(batches) === checking) verdicts.delete(batches);
  return verdict;
}

/**
 * The batches of this client's pg once its check passed, `false` once it failed, undefined while
 * it has not ended (or the client cannot take a batch): the executor's path with nothing to wait for.
 */
export function settledBatches(client: CheckedClient): PgBatches | false | undefined {
  const batches = batchesOf(client);
  if (batches === undefined) return false;
  const verdict = settled.get(batches);
  return verdict === undefined ? undefined : verdict === 'behaves' && batches;
}

/**
 * The batches to use on this freshly checked-out client, checking them first when its pg was not
 * checked yet: undefined when it cannot take one or its pg's batches did not behave. When the
 * check ran on it and did not pass, `replace` is true: release this client as broken and use
 * another, one statement a round trip.
 */
export async function verifiedBatches(
  client: CheckedClient,
): Promise<{ batches: PgBatches | undefined; replace: boolean }> {
  const batches = batchesOf(client);
  if (batches === undefined) return { batches: undefined, replace: false };
  const known = verdicts.get(batches);
  // Another transaction's check is under way or done: its verdict, without a check of this client.
  const verdict = known === undefined ? undefined : await known;
  if (verdict !== undefined && verdict !== 'unknown')
    return { batches: verdict === 'behaves' ? batches : undefined, replace: false };
  const own = await checkAndKeep(client, batches);
  return own === 'behaves' ? { batches, replace: false } : { batches: undefined, replace: true };
}
