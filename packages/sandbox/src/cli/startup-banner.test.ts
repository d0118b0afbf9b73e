import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../start/start-sandbox.js';
import { startTestSandbox } from '../test-support/sandbox-fixture.js';
import { startupBanner } from './startup-banner.js';

describe('startupBanner', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('prints both environments: URLs, credentials, webhook secret and URL, go-live state', async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1', webhookUrl: 'http://127.0.0.1:9/hook' });
    const banner = startupBanner(sandbox);
    const live = sandbox.environments.production;
    expect(banner).toContain(`API base URL       ${sandbox.apiBaseUrl}`);
    expect(banner).toContain(`Checkout base URL  ${sandbox.checkoutBaseUrl}`);
    expect(banner).toContain('Client ID          svc_test_demo');
    expect(banner).toContain(`Client secret      ${sandbox.credentials.clientSecret}`);
    expect(banner).toContain(`Webhook secret     ${sandbox.credentials.webhookSecret}`);
    expect(banner).toContain('Webhook URL        http://127.0.0.1:9/hook');
    expect(banner).toContain('Production environment (emulated; not live until approved');
    expect(banner).toContain(`API base URL       ${live.apiBaseUrl}`);
    expect(banner).toContain(`Webhook secret     ${live.webhookSecret()}`);
    expect(sandbox.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
  });

  it('prints no production credentials before approval, and never a production secret', async () => {
    sandbox = await startTestSandbox();
    const before = startupBanner(sandbox);
    expect(before).toContain(
      'Client ID, secret  (none yet: Approve on the dashboard issues them; the secret is shown once)',
    );
    expect(before).not.toContain('svc_live_demo');
    const { clientSecret } = sandbox.environments.production.approve();
    const after = startupBanner(sandbox);
    expect(after).toContain('Production environment (emulated; live)');
    expect(after).toContain('Client ID          svc_live_demo');
    expect(after).toContain('Client secret      (shown once, when its go-live review passed)');
    expect(after).not.toContain(clientSecret);
  });
});
