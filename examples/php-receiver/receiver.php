<?php
// A carrier-billing webhook receiver in plain PHP 8: verify on the raw body, de-duplicate, apply
// grant and revoke in an order that does not depend on delivery order, answer access. No framework,
// no Composer. The rules follow dcbkit's docs/entitlements.md ("Access rules"), cut to what a
// receiver without the service's API needs.

const SIGNATURE_TOLERANCE_SECONDS = 300;

/** True when `Service-Signature` (t=<unix>,v1=<hex>) signs these exact bytes with the secret, within 5 minutes. */
function signature_is_valid(string $rawBody, string $header, string $secret, int $now): bool
{
    $timestamp = null;
    $digests = [];
    foreach (explode(',', $header) as $part) {
        [$name, $value] = array_pad(explode('=', trim($part), 2), 2, '');
        if ($name === 't' && ctype_digit($value)) $timestamp = (int) $value;
        if ($name === 'v1') $digests[] = $value;
    }
    if ($timestamp === null || abs($now - $timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
    // The HMAC is over the bytes as received: json_decode then json_encode would not give them back.
    $expected = hash_hmac('sha256', $timestamp . '.' . $rawBody, $secret);
    foreach ($digests as $digest) {
        if (hash_equals($expected, $digest)) return true;
    }
    return false;
}

/** Events carry no id: these fields tell one event from another (a redelivery has the same key). */
function event_key(array $event): string
{
    $fields = ['event', 'paymentUid', 'subscriptionUid', 'orderId', 'subscriptionStatus', 'occurredAt'];
    return implode("\x1f", array_map(fn ($field) => (string) ($event[$field] ?? ''), $fields));
}

const STEP = [
    'payment.succeeded' => 0, 'subscription.trial_started' => 0, 'entitlement.granted' => 1,
    'entitlement.updated' => 2, 'subscription.updated' => 3, 'entitlement.revoked' => 4,
    'subscription.suspended' => 4, 'subscription.canceled' => 4, 'subscription.expired' => 4,
    'subscription.failed' => 4,
];
// At one instant and step, the outcome that gives more access wins: a tie never takes access away.
const ACCESS_RANK = ['REVOKED' => 0, 'IN_GRACE' => 1, 'PRE_CANCELED' => 2, 'TRIALING' => 3, 'ACTIVE' => 4];

/** The status a subscription event leads to, or null for events that change no access. */
function status_after(array $event, array $offer): ?string
{
    $status = $event['subscriptionStatus'] ?? null;
    switch ($event['event']) {
        case 'payment.succeeded':
            return $status ?? (($offer['trialDays'] ?? 0) > 0 ? 'TRIALING' : 'ACTIVE');
        case 'subscription.trial_started':
            return 'TRIALING';
        case 'entitlement.granted':
            return $status === 'TRIALING' ? 'TRIALING' : 'ACTIVE';
        case 'entitlement.updated':
            $outstanding = $event['periodOutstanding']['amount'] ?? 0;
            return $status === 'IN_GRACE' || ($status === null && $outstanding > 0) ? 'IN_GRACE' : 'ACTIVE';
        case 'subscription.updated':
            $scheduled = $status === 'PRE_CANCELED' || !empty($event['cancelAt']);
            return $scheduled ? 'PRE_CANCELED' : 'ACTIVE';
        default:
            return isset(STEP[$event['event']]) && STEP[$event['event']] === 4 ? 'REVOKED' : null;
    }
}

/**
 * Applies one verified, new event to the state. Events of unknown offers or accounts change nothing.
 * `$countOrdersOnce` false is the flaw the tests plant: a unit for every delivery of a purchase.
 */
function apply_event(array &$state, array $event, array $offers, bool $countOrdersOnce = true): void
{
    $account = $event['metadata']['accountKey'] ?? null;
    $offer = $offers[$event['offerUid'] ?? ''] ?? null;
    $product = $event['productUid'] ?? null;
    if (!is_string($account) || $offer === null || !is_string($product)) return;
    $key = $account . "\x1f" . $product;
    $held = $state['entitlements'][$key] ?? ['offerUid' => $event['offerUid'], 'status' => null, 'units' => 0, 'spent' => 0, 'orders' => []];
    if ($offer['type'] === 'CONSUMABLE') {
        if ($event['event'] === 'payment.succeeded') {
            // One unit per order, however often its event comes.
            $order = $event['orderId'] ?? $event['paymentUid'];
            if (!$countOrdersOnce || !isset($held['orders'][$order])) {
                $held['orders'][$order] = true;
                $held['units']++;
            }
        }
    } elseif ($offer['type'] === 'NON_CONSUMABLE') {
        if ($event['event'] === 'payment.succeeded') $held['status'] = 'ACTIVE';
    } else {
        $status = status_after($event, $offer);
        if ($status === null) return;
        $rank = [$event['occurredAt'], STEP[$event['event']], ACCESS_RANK[$status]];
        // The greatest event in (occurredAt, step, access) sets the status, whatever arrives last.
        if (!isset($held['rank']) || $rank > $held['rank']) {
            $held['rank'] = $rank;
            $held['status'] = $status;
            $held['cancelAt'] = $event['cancelAt'] ?? null;
            $held['graceEndsAt'] = $status === 'IN_GRACE'
                ? gmdate('c', strtotime($event['occurredAt']) + 86400 * ($offer['graceDays'] ?? 0))
                : null;
        }
    }
    $state['entitlements'][$key] = $held;
}

function has_access(?array $held, array $offers, int $now): bool
{
    if ($held === null) return false;
    $offer = $offers[$held['offerUid']] ?? null;
    if ($offer === null) return false;
    if ($offer['type'] === 'CONSUMABLE') {
        // A pass that sells time opens access once used, for its time; credits while one is left.
        if (isset($offer['unitAccessSeconds'])) return ($held['accessEndsAt'] ?? 0) > $now;
        return $held['units'] - $held['spent'] > 0;
    }
    switch ($held['status']) {
        case 'ACTIVE':
        case 'TRIALING':
            return true;
        case 'PRE_CANCELED':
            return $held['cancelAt'] === null || strtotime($held['cancelAt']) > $now;
        case 'IN_GRACE':
            return ($offer['accessDuringGrace'] ?? false) && strtotime($held['graceEndsAt']) > $now;
        default:
            return false;
    }
}

/**
 * Spends one unit of a pass: its time starts now, or after the time already running. Null when
 * none is left (or the product is no pass); else the units left.
 */
function spend_unit(array &$state, string $key, array $offers, int $now): ?int
{
    $held = $state['entitlements'][$key] ?? null;
    $offer = $held === null ? null : ($offers[$held['offerUid']] ?? null);
    if ($offer === null || $offer['type'] !== 'CONSUMABLE' || $held['units'] - $held['spent'] <= 0) return null;
    $held['spent']++;
    if (isset($offer['unitAccessSeconds'])) {
        $held['accessEndsAt'] = max($now, $held['accessEndsAt'] ?? 0) + $offer['unitAccessSeconds'];
    }
    $state['entitlements'][$key] = $held;
    return $held['units'] - $held['spent'];
}

/**
 * Runs `$change` on the state file under an exclusive lock, so that two requests (php -S with
 * PHP_CLI_SERVER_WORKERS, or PHP-FPM) never interleave: the key check and the effect are one step.
 */
function with_state(string $path, callable $change)
{
    $file = fopen($path, 'c+');
    if ($file === false || !flock($file, LOCK_EX)) throw new RuntimeException("cannot lock $path");
    try {
        $text = stream_get_contents($file);
        $state = $text === '' ? ['processed' => [], 'entitlements' => []] : json_decode($text, true, 512, JSON_THROW_ON_ERROR);
        $result = $change($state);
        ftruncate($file, 0);
        rewind($file);
        fwrite($file, json_encode($state, JSON_THROW_ON_ERROR));
        fflush($file);
        return $result;
    } finally {
        flock($file, LOCK_UN);
        fclose($file);
    }
}
