/**
 * The floor's SQL, written by hand for this bench: the same statements, with the same columns,
 * parameters and shapes, that @dcbkit/store-postgres sends for a payment.succeeded on its
 * one-transaction path (its claim, getVersioned, insert or updateIfUnchanged, byLine, the
 * subscription's lifecycle record under its subscriber's lock, and the last statement with the
 * key's target, the history entry, the pending payment's end, the subscriber's derived columns
 * (a subscription's: `lastOfSubscription`) and the facts). The lifecycle record is inserted with
 * DO NOTHING on a conflict: each bench event is a new subscription, so the merge never runs.
 * Kept in step by hand; the per-event part of `pnpm bench` counts the rows each side writes.
 */
export function floorStatements(schema: string) {
  const table = (name: string) => `"${schema}"."dcbkit_${name}"`;
  const entitlements = table('entitlements');
  const payments = table('entitlement_payments');
  const units = table('entitlement_units');
  const events = table('events');
  const history = table('history');
  const historyColumns = `recorded_at, account_key, product_uid, source, decision, event_name, event_key, occurred_at,
    payment_uid, subscription_uid, status_before, status_after, units_before, units_after, subscriber_uid`;
  const unitsHeld = `CASE WHEN e.data->>'type' = 'CONSUMABLE' THEN GREATEST(0,
    COALESCE((e.data->>'unitsBought')::int, 0) - COALESCE((e.data->>'unitsUsed')::int, 0)) END`;
  const withFacts = (write: string) => `WITH written AS (${write} RETURNING 1),
    payment AS (INSERT INTO ${payments} (payment_uid, account_key, product_uid)
      SELECT $8::text, $1::text, $2::text WHERE $8::text IS NOT NULL AND EXISTS (SELECT 1 FROM written)
      ON CONFLICT (payment_uid) DO NOTHING),
    unit AS (INSERT INTO ${units} (account_key, product_uid, order_id)
      SELECT $1::text, $2::text, $9::text WHERE $9::text IS NOT NULL AND EXISTS (SELECT 1 FROM written)
      ON CONFLICT DO NOTHING)
    SELECT 1 AS written FROM written`;
  const lifecycles = table('subscription_lifecycles');
  const last = (
    derive: boolean,
  ) => `WITH w0 AS (UPDATE ${events} SET account_key = $2, product_uid = $3 WHERE key_hash = decode($1, 'hex')),
      w1 AS (INSERT INTO ${history} (${historyColumns})
        VALUES ($4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)),
      w2 AS (UPDATE ${table('pending_payments')} SET ended_status = $20,
          ended_failure_code = COALESCE($21, ended_failure_code),
          ended_at = COALESCE(ended_at, $22::timestamptz),
          ended_subscriber_uid = COALESCE($23, ended_subscriber_uid)
        WHERE payment_uid = $19),${
          derive
            ? `
      w3 AS (UPDATE ${lifecycles} AS l SET cohort_month = d.cohort_month, cohort_offer_uid = d.cohort_offer_uid,
          subscriber_first = d.subscriber_first, reactivation = d.reactivation
        FROM (SELECT subscription_uid,
            date_trunc('month', first_value(first_paid_at) OVER w AT TIME ZONE 'UTC')::date AS cohort_month,
            first_value(offer_uid) OVER w AS cohort_offer_uid,
            row_number() OVER w = 1 AS subscriber_first,
            COALESCE(min(CASE WHEN ended_at IS NOT NULL THEN GREATEST(ended_at, first_paid_at) END)
              OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) <= first_paid_at, false) AS reactivation
          FROM ${lifecycles}
          WHERE first_paid_at IS NOT NULL AND (account_key, product_uid) IN (SELECT * FROM unnest($33::text[], $34::text[]))
          WINDOW w AS (PARTITION BY account_key, product_uid ORDER BY first_paid_at, subscription_uid COLLATE "C")) AS d
        WHERE l.subscription_uid = d.subscription_uid AND (l.cohort_month IS DISTINCT FROM d.cohort_month
          OR l.cohort_offer_uid IS DISTINCT FROM d.cohort_offer_uid OR l.subscriber_first <> d.subscriber_first
          OR l.reactivation <> d.reactivation)),`
            : ''
        }
      input AS (
        SELECT * FROM unnest($24::text[], $25::date[], $26::text[], $27::text[], $28::text[], $29::text[],
          $30::bigint[], $31::bigint[], $32::bigint[]) WITH ORDINALITY
          AS e(key, day, offer_uid, product_uid, kind, currency, count, amount, live, n)
      ), fresh AS (
        INSERT INTO ${table('metric_keys')} (key) SELECT DISTINCT key FROM input
        ON CONFLICT (key) DO NOTHING RETURNING key
      ), first_seen AS (
        SELECT DISTINCT ON (key) input.* FROM input JOIN fresh USING (key) ORDER BY key, n
      ), totals AS (
        INSERT INTO ${table('metric_days')} AS d (day, offer_uid, product_uid, kind, currency, detail, count, amount, live)
        SELECT day, offer_uid, product_uid, kind, currency, '', sum(count), sum(amount), sum(live)
        FROM first_seen GROUP BY day, offer_uid, product_uid, kind, currency
        ON CONFLICT (day, offer_uid, product_uid, kind, currency, detail) DO UPDATE SET
          count = d.count + excluded.count, amount = d.amount + excluded.amount, live = d.live + excluded.live
      )
      SELECT key FROM fresh`;
  return {
    // $1 subscription uid, $2 account, $3 product, $4 offer, $5 first paid at: the subscription's
    // lifecycle record, under its subscriber's lock (held to the commit).
    lifecycle: `WITH locks AS (
        SELECT pg_advisory_xact_lock(hashtextextended('${lifecycles}:' || $2::text || E'\\n' || $3::text, 0)) AS held
      )
      INSERT INTO ${lifecycles} (subscription_uid, account_key, product_uid, offer_uid, currency, monthly_value,
        first_paid_at, first_paid_provisional)
      SELECT $1, $2, $3, $4, 'TND', 4500, $5::timestamptz, false FROM locks
      ON CONFLICT (subscription_uid) DO NOTHING`,
    // $1 hash, $2 key, $3 timeout ms, $4 token, $5 write a copy's history, $6 event name, $7
    // occurred at, $8 payment uid, $9 subscription uid, $10 the line a subscription's payment locks.
    claim: `WITH settings AS (
        SELECT set_config('lock_timeout', $3, true) AS lock_timeout, set_config('statement_timeout', $3, true) AS statement_timeout,
          CASE WHEN $10::text IS NOT NULL THEN pg_advisory_xact_lock(hashtextextended('${events}:line:' || $10::text, 0)) END AS line_lock
      ), claim AS (
        INSERT INTO ${events} (key_hash, event_key, state, lease_until, claim_token, completed_at)
        SELECT decode($1, 'hex'), $2, 'completed', NULL, $4, now() FROM settings
        ON CONFLICT (key_hash) DO NOTHING RETURNING 1
      ), seen AS (
        SELECT state, lease_until <= now() AS lapsed, account_key, product_uid FROM ${events}
        WHERE key_hash = decode($1, 'hex')
      ), copy AS (
        INSERT INTO ${history} (${historyColumns})
        SELECT now(), s.account_key, s.product_uid, 'webhook', 'duplicate', $6, $2, $7, $8,
          COALESCE($9, e.subscription_uid), e.data->>'status', e.data->>'status', ${unitsHeld}, ${unitsHeld}, NULL
        FROM seen s LEFT JOIN ${entitlements} e ON e.account_key = s.account_key AND e.product_uid = s.product_uid
        WHERE $5::boolean AND s.state = 'completed' AND s.account_key IS NOT NULL
      )
      SELECT EXISTS (SELECT 1 FROM claim) AS claimed, s.state, s.lapsed
      FROM (VALUES (1)) AS one (x) LEFT JOIN seen s ON true`,
    // $1 account, $2 product, $3 payment uid, $4 unit order id (or null).
    read: `SELECT e.data, e.version::text AS version, (SELECT p.account_key = $1 AND p.product_uid = $2 FROM ${payments} p
        WHERE p.payment_uid = $3) AS payment_ours,
      EXISTS (SELECT 1 FROM ${units} u WHERE u.account_key = $1 AND u.product_uid = $2 AND u.order_id = $4) AS unit_known
      FROM (VALUES (1)) AS one (x) LEFT JOIN ${entitlements} e ON e.account_key = $1 AND e.product_uid = $2`,
    // $3 subscription uid, $4 the record, $5 live, $6 deadline, $7 last event at, $8 payment uid
    // and $9 unit order id to record (or null), $10 the version read (update only).
    insert: withFacts(`INSERT INTO ${entitlements}
        (account_key, product_uid, subscription_uid, data, live_subscription, deadline_at, last_event_at)
      VALUES ($1, $2, $3, $4::text::jsonb, $5::boolean, $6::timestamptz, $7::timestamptz)
      ON CONFLICT (account_key, product_uid) DO NOTHING`),
    update: withFacts(`UPDATE ${entitlements} SET subscription_uid = $3, data = $4::text::jsonb,
        live_subscription = $5::boolean, deadline_at = $6::timestamptz, last_event_at = $7::timestamptz,
        version = version + 1, updated_at = now()
      WHERE account_key = $1 AND product_uid = $2 AND version = $10::bigint`),
    line: `SELECT data FROM ${entitlements} WHERE data->>'subscriberUid' = $1
      ORDER BY account_key COLLATE "C", product_uid COLLATE "C"`,
    // The key's target, the history entry ($4 to $18), the pending payment's end ($19 to $23) and
    // the business fact ($24 to $32, arrays: the store's shape takes any number), answering the
    // fact's key when it was new; for a subscription, its subscriber's derived columns too ($33,
    // $34: the accounts and products).
    last: last(false),
    lastOfSubscription: last(true),
  };
}
