<?php
// The offers configured in the service's console, as this receiver needs them: what each sells
// and how. These are the sandbox's default offers (@dcbkit/sandbox's default-config.json).
// `unitAccessSeconds` is the partner's own: how long a pass gives access once used (a day).
return [
    'offer_premium_monthly' => ['type' => 'SUBSCRIPTION', 'trialDays' => 7, 'graceDays' => 3, 'accessDuringGrace' => true],
    'offer_premium_monthly_paid' => ['type' => 'SUBSCRIPTION', 'trialDays' => 0, 'graceDays' => 3, 'accessDuringGrace' => true],
    'offer_day_pass' => ['type' => 'CONSUMABLE', 'unitAccessSeconds' => 86400],
    'offer_full_unlock' => ['type' => 'NON_CONSUMABLE'],
];
