<?php
// The receiver's verification against every signed example of @dcbkit/sandbox/signed-events.json,
// as a partner's unit test: php signed-events-test.php path/to/signed-events.json
require __DIR__ . '/receiver.php';

$fixtures = json_decode(file_get_contents($argv[1]), true, 512, JSON_THROW_ON_ERROR);
$failures = [];
foreach ($fixtures['events'] as $example) {
    if (!signature_is_valid($example['rawBody'], $example['serviceSignature'], $fixtures['secret'], $fixtures['signedAt'])) {
        $failures[] = "refused a genuine {$example['event']}";
    }
}
foreach ($fixtures['mustRefuse'] as $example) {
    if (signature_is_valid($example['rawBody'], $example['serviceSignature'], $fixtures['secret'], $example['verifyAt'])) {
        $failures[] = "accepted an event that must be refused: {$example['why']}";
    }
}
if ($failures !== []) {
    fwrite(STDERR, implode("\n", $failures) . "\n");
    exit(1);
}
echo count($fixtures['events']) . " events verified, " . count($fixtures['mustRefuse']) . " refused\n";
