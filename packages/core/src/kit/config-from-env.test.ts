import { configFromEnv, DcbError } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';

const SANDBOX = {
  DCB_ENV: 'sandbox',
  DCB_API_BASE_URL: 'http://127.0.0.1:4010',
  DCB_CLIENT_ID: 'svc_test_demo',
  DCB_CLIENT_SECRET: 'sandbox-demo-client-secret',
  DCB_WEBHOOK_SECRET: 'whsec_one, whsec_two',
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    configFromEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(DcbError);
    expect(error).toMatchObject({ code: 'invalid_env' });
    return (error as DcbError).details.problems as string[];
  }
  throw new Error('expected invalid_env');
}

describe('configFromEnv', () => {
  it('reads a complete sandbox environment, with rotating webhook secrets', () => {
    expect(configFromEnv(SANDBOX)).toEqual({
      client: {
        environment: 'sandbox',
        baseUrl: 'http://127.0.0.1:4010',
        clientId: 'svc_test_demo',
        clientSecret: 'sandbox-demo-client-secret',
      },
      webhookSecrets: ['whsec_one', 'whsec_two'],
    });
  });

  it('reads DCB_FORM_SECRET, several comma-separated while rotating', () => {
    expect(configFromEnv({ ...SANDBOX, DCB_FORM_SECRET: 'form_new, form_old' }).formSecret).toEqual([
      'form_new',
      'form_old',
    ]);
    expect(configFromEnv(SANDBOX).formSecret).toBeUndefined();
    expect(problemsOf({ ...SANDBOX, DCB_FORM_SECRET: ' , ' })).toEqual(['DCB_FORM_SECRET holds no secret.']);
  });

  it('names every missing variable at once', () => {
    const problems = problemsOf({});
    expect(problems).toHaveLength(5);
    for (const name of [
      'DCB_ENV',
      'DCB_API_BASE_URL',
      'DCB_CLIENT_ID',
      'DCB_CLIENT_SECRET',
      'DCB_WEBHOOK_SECRET',
    ]) {
      expect(problems.some((problem) => problem.startsWith(`${name} is not set`))).toBe(true);
    }
  });

  it('refuses inconsistent settings, each with its own line, and never prints a secret', () => {
    let message = '';
    try {
      configFromEnv({
        ...SANDBOX,
        DCB_ENV: 'production',
        DCB_API_BASE_URL: 'http://api.example.com/v1',
        DCB_RETURN_URL: 'not a url',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('DCB_CLIENT_ID must start with svc_live_');
    expect(message).toContain('DCB_API_BASE_URL must use https');
    expect(message).toContain('without /v1');
    expect(message).toContain('DCB_RETURN_URL must be an absolute URI');
    expect(message).not.toContain('sandbox-demo-client-secret');
    expect(message).not.toContain('whsec_one');
  });

  it("takes an app's deep link as DCB_RETURN_URL, never a script URL", () => {
    expect(configFromEnv({ ...SANDBOX, DCB_RETURN_URL: 'myapp://billing/done' }).returnUrl).toBe(
      'myapp://billing/done',
    );
    expect(() => configFromEnv({ ...SANDBOX, DCB_RETURN_URL: 'javascript:alert(1)' })).toThrow(
      /DCB_RETURN_URL must be an absolute URI/,
    );
  });

  it('refuses an unknown DCB_ENV', () => {
    expect(problemsOf({ ...SANDBOX, DCB_ENV: 'staging' })).toEqual([
      'DCB_ENV must be sandbox or production; it is "staging".',
    ]);
  });

  it('accepts production over https, and http on a loopback address', () => {
    const production = { ...SANDBOX, DCB_ENV: 'production', DCB_CLIENT_ID: 'svc_live_app' };
    expect(
      configFromEnv({ ...production, DCB_API_BASE_URL: 'https://api.example.com' }).client.environment,
    ).toBe('production');
    expect(configFromEnv({ ...production, DCB_API_BASE_URL: 'http://127.0.0.1:4010' }).client.baseUrl).toBe(
      'http://127.0.0.1:4010',
    );
  });
});
