import {
  createClock,
  PartnerCheckError,
  type PartnerCheckOptions,
  type PartnerCheckReport,
  runPartnerCheck,
  type Sandbox,
  startSandbox,
} from '@dcbkit/sandbox/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT_HEADER, type AppFlaw, type BareNodeApp, startBareNodeApp } from './bare-node-app.js';

let sandbox: Sandbox | undefined;
let app: BareNodeApp | undefined;
afterEach(async () => {
  await app?.close();
  await sandbox?.close();
  app = undefined;
  sandbox = undefined;
});

/** A fresh sandbox on a frozen clock and the bare node:http app on it, as a partner's CI starts them. */
async function start(flaw?: AppFlaw): Promise<PartnerCheckOptions> {
  sandbox = await startSandbox({ clock: createClock({ start: '2030-01-01T00:00:00Z', frozen: true }) });
  app = await startBareNodeApp(sandbox, flaw);
  return {
    sandbox,
    appUrl: app.url,
    signIn: (accountKey) => ({ [ACCOUNT_HEADER]: accountKey }),
    products: [
      { offerUid: 'offer_premium_monthly', gatePath: '/premium' },
      { offerUid: 'offer_day_pass', gatePath: '/day-pass', spendPath: '/account/passes/prod_day_pass/use' },
      { offerUid: 'offer_full_unlock', gatePath: '/unlock' },
    ],
  };
}

async function failureOf(options: PartnerCheckOptions): Promise<PartnerCheckError> {
  const error = await runPartnerCheck(options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PartnerCheckError);
  return error as PartnerCheckError;
}

const outcomes = (report: PartnerCheckReport | undefined) =>
  Object.fromEntries(report?.checks.map((check) => [check.name, check.outcome]) ?? []);

describe('the partner check against an app on bare node:http, with no dcbkit adapter', () => {
  it('passes a correct app: every check, through chaos, dead letters and an expiry; the sandbox is left as found', async () => {
    const options = await start();
    const running = options.sandbox;
    const chaosBefore = running.chaos();
    const report = await runPartnerCheck(options);
    expect(outcomes(report)).toEqual({
      checkout: 'passed',
      signature: 'passed',
      duplicates: 'passed',
      delivery: 'passed',
      units: 'passed',
      'access-gate': 'passed',
    });
    expect(report.passed).toBe(true);
    expect(report.checks[1]?.summary).toMatch(/An event signed with another secret was refused \(401\)\.$/);
    // The chaos the run promised happened: every kind of it, on a fixed seed.
    for (const count of [
      'duplicates',
      'heldBack',
      'delayed',
      'indented',
      'deadLettered',
      'replays',
    ] as const) {
      expect(report.deliveries[count], count).toBeGreaterThan(0);
    }
    expect(report.purchases.filter((purchase) => purchase.duringOutage)).toHaveLength(2);
    // After expiry and suspension, the gate agreed that only the renewing account keeps Premium.
    const afterExpiry = report.gates.filter(
      (gate) => gate.checkpoint.startsWith('after renewal') && gate.productUid === 'prod_premium',
    );
    expect(afterExpiry.map((gate) => [gate.accountKey, gate.service, gate.status])).toEqual([
      ['partner-check-renewing', 'ACTIVE', 200],
      ['partner-check-lapsing', 'SUSPENDED', 403],
      ['partner-check-expiring', 'EXPIRED', 403],
    ]);
    // What the app holds: each day pass counted once, the late replayed payment included.
    expect(await app?.kit.store.get('partner-check-renewing', 'prod_day_pass')).toMatchObject({
      unitsBought: 2,
      unitsUsed: 2,
    });
    expect(running.chaos()).toEqual(chaosBefore);
    expect(running.environments.sandbox.webhookUrl()).toBeNull();
  });

  it('fails an app that verifies a re-serialised body: the signature check says so, and the events it lost', async () => {
    const error = await failureOf(await start('reserialised-body'));
    expect(error.code).toBe('partner_check_failed');
    expect(outcomes(error.report)).toMatchObject({
      checkout: 'passed',
      signature: 'failed',
      delivery: 'failed',
      units: 'passed',
    });
    const signature = error.failures.find((failure) => failure.name === 'signature');
    expect(signature?.summary).toMatch(/Every refused body was indented; compact ones passed\.$/);
    expect(signature?.evidence.every((line) => line.includes('(indented body)') && / 401 /.test(line))).toBe(
      true,
    );
    expect(error.message).toContain('your receiver verifies a re-serialised body');
    expect(error.message).toContain('Verify the signature over the raw request bytes');
    expect(error.message).toContain('fix what the signature check says');
  });

  it('fails an app that grants a unit on every delivery: the units check counts one spend too many', async () => {
    const error = await failureOf(await start('no-deduplication'));
    expect(outcomes(error.report)).toMatchObject({
      checkout: 'passed',
      signature: 'passed',
      duplicates: 'passed',
      delivery: 'passed',
      units: 'failed',
    });
    const units = error.failures.find((failure) => failure.name === 'units');
    expect(units?.evidence).toEqual([
      'partner-check-renewing, prod_day_pass: 2 paid, 3 spent, then never refused',
      'partner-check-lapsing, prod_day_pass: 1 paid, 2 spent, then never refused',
    ]);
    expect(error.message).toContain('a duplicate delivery granted twice');
    expect(error.message).toContain('De-duplicate on the event’s key');
  });

  it('stops at once, with what to fix, when nothing receives webhooks at paths.webhook', async () => {
    const options = await start();
    const error = await failureOf({ ...options, paths: { webhook: '/hooks/dcb' } });
    expect(outcomes(error.report)).toMatchObject({
      signature: 'failed',
      checkout: 'skipped',
      delivery: 'skipped',
    });
    expect(error.message).toContain('/hooks/dcb answered 404: nothing receives the service');
    expect(error.message).toContain(
      'name your webhook route in paths.webhook (now /hooks/dcb), mounted for POST.',
    );
    expect(error.report?.purchases).toEqual([]);
  });

  it('stops at the checkout, with what to fix, when the page shows no checkout form', async () => {
    const options = await start();
    const error = await failureOf({ ...options, paths: { offersPage: '/nowhere' } });
    expect(outcomes(error.report)).toEqual({
      checkout: 'failed',
      signature: 'skipped',
      duplicates: 'skipped',
      delivery: 'skipped',
      units: 'skipped',
      'access-gate': 'skipped',
    });
    expect(error.message).toContain(
      'No form posting to /checkout with offerUid=offer_premium_monthly on /nowhere for partner-check-renewing.',
    );
    expect(error.message).toContain('GET /nowhere answered 404');
    expect(error.message).toContain('or pass formFields(accountKey)');
    // The usual cause on a shop's real offers page: accounts its sign-in does not know.
    expect(error.message).toContain('pass them as accounts (the starters: demo-amira');
    expect(options.sandbox.environments.sandbox.webhookUrl()).toBeNull();
  });
});
