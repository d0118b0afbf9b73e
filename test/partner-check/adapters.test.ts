import type { RequestListener } from 'node:http';
import { createClock, runPartnerCheck, type Sandbox, startSandbox } from '@dcbkit/sandbox/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../support/listen.js';
import { APP_VARIANTS, accountHeader } from '../support/partner-apps.js';
import { createPartnerKit } from '../support/partner-kit.js';

let sandbox: Sandbox | undefined;
let app: RunningServer | undefined;
afterEach(async () => {
  await app?.close();
  await sandbox?.close();
  app = undefined;
  sandbox = undefined;
});

describe.each(APP_VARIANTS)('the partner check against $name with its dcbkit adapter', (variant) => {
  it('passes, with form tokens from the kit instead of pages', async () => {
    sandbox = await startSandbox({ clock: createClock({ start: '2030-01-01T00:00:00Z', frozen: true }) });
    let listener: RequestListener = (_req, res) => res.end();
    app = await listen((req, res) => listener(req, res));
    const kit = createPartnerKit(sandbox, `${app.url}/return`);
    listener = await variant.build(kit, 'none');

    const report = await runPartnerCheck({
      sandbox,
      appUrl: app.url,
      signIn: (accountKey) => ({ [accountHeader]: accountKey }),
      formFields: (accountKey) => ({ token: kit.routes.formToken(accountKey) }),
      products: [
        { offerUid: 'offer_premium_monthly', gatePath: '/premium' },
        { offerUid: 'offer_day_pass', gatePath: '/day-pass', spendPath: '/passes/prod_day_pass/use' },
        { offerUid: 'offer_full_unlock', gatePath: '/unlock' },
      ],
    });

    expect(report.checks.map((check) => [check.name, check.outcome])).toEqual([
      ['checkout', 'passed'],
      ['signature', 'passed'],
      ['duplicates', 'passed'],
      ['delivery', 'passed'],
      ['units', 'passed'],
      ['access-gate', 'passed'],
    ]);
    // What the app holds agrees with the report: each day pass counted once, every unit spent.
    expect(await kit.store.get('partner-check-renewing', 'prod_day_pass')).toMatchObject({
      unitsBought: 2,
      unitsUsed: 2,
    });
    // A day pass spent opens the gate for its day, and the gate closes once the days are over.
    const dayPassGate = (checkpoint: string) =>
      report.gates.filter((gate) => gate.checkpoint === checkpoint && gate.productUid === 'prod_day_pass');
    expect(
      dayPassGate('after every unit was spent').map((gate) => [gate.expected, gate.agrees]),
    ).toContainEqual(['granted', true]);
    const over = dayPassGate('after the time of every unit spent ran out');
    expect(over.length).toBeGreaterThan(0);
    expect(over.every((gate) => gate.expected === 'refused' && gate.agrees)).toBe(true);
    expect(await kit.store.get('partner-check-expiring', 'prod_premium')).toMatchObject({
      status: 'REVOKED',
    });
  });
});
