<?php
// The receiver's routes, for PHP's built-in server (php -S 127.0.0.1:8000 index.php) or any
// front controller: POST /webhooks/dcb, GET /access, POST /spend.
//
// Environment: DCB_WEBHOOK_SECRET (required), STATE_FILE (default: state.json beside this file),
// RECEIVER_FLAW (tests only: reserialized-body or no-dedupe, the two classic mistakes).
require __DIR__ . '/receiver.php';

$secret = getenv('DCB_WEBHOOK_SECRET') ?: '';
$statePath = getenv('STATE_FILE') ?: __DIR__ . '/state.json';
$flaw = getenv('RECEIVER_FLAW') ?: '';
$offers = require __DIR__ . '/offers.php';
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$method = $_SERVER['REQUEST_METHOD'];

function answer(int $status, array $body): void
{
    http_response_code($status);
    header('Content-Type: application/json');
    echo json_encode($body);
}

if ($secret === '') {
    answer(500, ['error' => 'DCB_WEBHOOK_SECRET is not set']);
    return;
}

if ($method === 'POST' && $path === '/webhooks/dcb') {
    $rawBody = file_get_contents('php://input');
    $signed = $flaw === 'reserialized-body' ? json_encode(json_decode($rawBody)) : $rawBody;
    if (!signature_is_valid($signed, $_SERVER['HTTP_SERVICE_SIGNATURE'] ?? '', $secret, time())) {
        answer(401, ['error' => 'signature does not match']);
        return;
    }
    $event = json_decode($rawBody, true);
    if (!is_array($event) || !isset($event['event'], $event['occurredAt'])) {
        answer(400, ['error' => 'not an event']);
        return;
    }
    $duplicate = with_state($statePath, function (array &$state) use ($event, $offers, $flaw): bool {
        $key = event_key($event);
        $deduplicate = $flaw !== 'no-dedupe';
        if ($deduplicate && isset($state['processed'][$key])) return true;
        apply_event($state, $event, $offers, $deduplicate);
        $state['processed'][$key] = true;
        return false;
    });
    // A copy of an event processed before is acknowledged: any other answer makes the service retry it.
    answer(200, $duplicate ? ['duplicate' => true] : ['received' => true]);
    return;
}

$account = $_GET['account'] ?? '';
$product = $_GET['product'] ?? '';
$key = $account . "\x1f" . $product;

if ($method === 'GET' && $path === '/access') {
    $held = with_state($statePath, fn (array &$state) => $state['entitlements'][$key] ?? null);
    $allowed = has_access($held, $offers, time());
    answer($allowed ? 200 : 403, ['access' => $allowed]);
    return;
}

if ($method === 'POST' && $path === '/spend') {
    $left = with_state($statePath, fn (array &$state) => spend_unit($state, $key, $offers, time()));
    answer($left === null ? 409 : 200, $left === null ? ['error' => 'no unit left'] : ['unitsLeft' => $left]);
    return;
}

answer(404, ['error' => "no route $method $path"]);
