import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { offerDefinitionSchema } from '@dcbkit/core/schemas';
import { describe, expect, it } from 'vitest';
import { defaultSandboxConfig, loadSandboxConfig, parseSandboxConfig } from './load-config.js';
import { offerDefinitionsOf } from './offer-definitions.js';
import { SandboxConfigError } from './sandbox-config-error.js';

function withChange(
  change: (config: Record<string, unknown> & ReturnType<typeof defaultSandboxConfig>) => void,
) {
  const config = defaultSandboxConfig();
  change(config);
  return config;
}

describe('default config', () => {
  it('has a monthly TND subscription with a trial, a consumable, a non-consumable, two operators with different consent', () => {
    const config = defaultSandboxConfig();
    const byType = Object.fromEntries(config.offers.map((offer) => [offer.type, offer]));
    const byUid = Object.fromEntries(config.offers.map((offer) => [offer.offerUid, offer]));
    expect(byUid.offer_premium_monthly).toMatchObject({
      price: { amount: 4500, currency: 'TND' },
      billingPeriod: { unit: 'MONTH', count: 1 },
      trialDays: 7,
      onceTrialUsed: 'offer_premium_monthly_paid',
      gracePolicy: { days: 3, accessDuringGrace: true },
    });
    // What a returning subscriber pays for: the same product, no trial.
    expect(byUid.offer_premium_monthly_paid).toMatchObject({
      productUid: 'prod_premium',
      price: { amount: 4500, currency: 'TND' },
      trialDays: 0,
    });
    expect(byType.CONSUMABLE).toBeDefined();
    expect(byType.NON_CONSUMABLE).toBeDefined();
    const [first, second] = config.operators;
    expect(first?.countryCode).toBe('TN');
    expect(second?.countryCode).toBe('TN');
    expect(first?.consentMethods).not.toEqual(second?.consentMethods);
    expect(config.applications[0]?.clientId).toMatch(/^svc_test_/);
    expect(config.applications[0]?.capabilities).toEqual(['payments', 'capabilities', 'subscriptions']);
  });

  it('gives offers that core accepts as offer definitions', () => {
    for (const offer of offerDefinitionsOf(defaultSandboxConfig())) {
      expect(offerDefinitionSchema.parse(offer)).toEqual(offer);
    }
  });

  it('hands out a fresh copy each time', () => {
    const config = defaultSandboxConfig();
    config.offers.length = 0;
    expect(defaultSandboxConfig().offers).toHaveLength(4);
  });
});

describe('parseSandboxConfig', () => {
  it('refuses a production client ID', () => {
    const config = withChange((c) => {
      (c.applications[0] as { clientId: string }).clientId = 'svc_live_demo';
    });
    expect(() => parseSandboxConfig(config)).toThrow(SandboxConfigError);
  });

  it('takes a production client secret only from an application whose go-live review passed', () => {
    const production = (c: ReturnType<typeof defaultSandboxConfig>) => {
      const block = c.applications[0]?.production;
      if (!block) throw new Error('The default config lost its production block.');
      return block;
    };
    expect(production(defaultSandboxConfig())).toEqual({
      clientId: 'svc_live_demo',
      webhook: { url: null, secret: 'whsec_production_demo_secret' },
      approved: false,
    });
    const issuedBeforeApproval = withChange((c) => {
      production(c).clientSecret = 'a-secret-before-its-review';
    });
    expect(catchError(() => parseSandboxConfig(issuedBeforeApproval)).issues).toEqual([
      {
        path: 'applications[0].production.clientSecret',
        message: expect.stringContaining('issued by the go-live review, never before'),
      },
    ]);
    const approvedWithout = withChange((c) => {
      production(c).approved = true;
    });
    expect(catchError(() => parseSandboxConfig(approvedWithout)).issues).toEqual([
      {
        path: 'applications[0].production.clientSecret',
        message: expect.stringContaining('needs the client secret its go-live review issued'),
      },
    ]);
    const approved = withChange((c) => {
      Object.assign(production(c), { approved: true, clientSecret: 'the-secret-its-review-issued' });
    });
    expect(production(parseSandboxConfig(approved)).clientSecret).toBe('the-secret-its-review-issued');
  });

  it('refuses an offer sold on an unknown operator or to an unknown application', () => {
    const unknownOperator = withChange((c) => {
      c.offers[0]?.operators.push('NOPE');
    });
    expect(() => parseSandboxConfig(unknownOperator)).toThrow(/unknown operator NOPE/);
    const unknownApp = withChange((c) => {
      c.offers[0]?.applications.push('svc_test_ghost');
    });
    expect(() => parseSandboxConfig(unknownApp)).toThrow(/unknown application svc_test_ghost/);
  });

  it('refuses a charging test number outside every operator, and a subscription without a period', () => {
    const stray = withChange((c) => {
      c.testNumbers['+33612345678'] = 'DECLINED';
    });
    expect(() => parseSandboxConfig(stray)).toThrow(/\+33612345678/);
    const noPeriod = withChange((c) => {
      const subscription = c.offers.find((offer) => offer.type === 'SUBSCRIPTION');
      if (subscription) subscription.billingPeriod = null;
    });
    expect(() => parseSandboxConfig(noPeriod)).toThrow(/billingPeriod/);
  });

  it('refuses more than four retry delays (the spec allows five attempts)', () => {
    const config = withChange((c) => {
      c.webhooks.retryDelaysSeconds = [1, 2, 3, 4, 5];
    });
    expect(() => parseSandboxConfig(config)).toThrow(SandboxConfigError);
  });

  it('refuses unknown properties', () => {
    expect(() => parseSandboxConfig({ ...defaultSandboxConfig(), extra: true })).toThrow(SandboxConfigError);
  });
});

describe('loadSandboxConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-sandbox-config-'));

  it('reads a JSON file and applies defaults', () => {
    const path = join(dir, 'minimal.json');
    const {
      payments: _payments,
      webhooks: _webhooks,
      consentPolicy: _policy,
      ...minimal
    } = defaultSandboxConfig();
    writeFileSync(path, JSON.stringify(minimal));
    const config = loadSandboxConfig(path);
    expect(config.payments.expirySeconds).toBe(1800);
    expect(config.webhooks.retryDelaysSeconds).toHaveLength(4);
    expect(config.consentPolicy.pin.length).toBe(4);
  });

  it('says which file is unreadable or not JSON', () => {
    const missing = catchError(() => loadSandboxConfig(join(dir, 'missing.json')));
    expect(missing).toMatchObject({
      code: 'config_unreadable',
      message: expect.stringMatching(/^Cannot read/),
    });
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{ not json');
    expect(() => loadSandboxConfig(path)).toThrow(/not valid JSON/);
  });

  it('gives the line and column of a JSON syntax error, and the end of a truncated file', () => {
    const path = join(dir, 'comma.json');
    writeFileSync(path, '{\n  "applications": [],\n  "operators": [1,]\n}\n');
    const error = catchError(() => loadSandboxConfig(path));
    expect(error).toMatchObject({ code: 'config_not_json', position: { line: 3, column: 19 } });
    expect(error.message).toContain(`${path}:3:19 is not valid JSON: unexpected "]"`);
    const truncated = join(dir, 'truncated.json');
    writeFileSync(truncated, '{\n  "applications": [');
    expect(catchError(() => loadSandboxConfig(truncated)).position).toEqual({ line: 2, column: 20 });
  });

  it('names the path of every schema issue', () => {
    const path = join(dir, 'wrong.json');
    const config = defaultSandboxConfig() as unknown as { applications: Array<Record<string, unknown>> };
    const [first] = config.applications;
    if (first) {
      first.clientId = 'demo';
      first.production = {
        clientId: 'svc_test_x',
        clientSecret: 'short',
        webhook: { secret: 'x'.repeat(16) },
        approved: true,
      };
    }
    writeFileSync(path, JSON.stringify(config));
    const error = catchError(() => loadSandboxConfig(path));
    expect(error.code).toBe('config_invalid');
    expect(error.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining([
        'applications[0].clientId',
        'applications[0].production.clientId',
        'applications[0].production.clientSecret',
      ]),
    );
    expect(error.message).toContain(
      'at applications[0].production.clientId: a production client ID starting with "svc_live_"',
    );
  });
});

function catchError(run: () => unknown): SandboxConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof SandboxConfigError) return error;
    throw error;
  }
  throw new Error('expected a SandboxConfigError');
}
