import { productionOf } from '../config/environment-config.js';
import type { Sandbox } from '../start/start-sandbox.js';

/**
 * What the CLI prints once the sandbox listens: where each environment is and its credentials. A
 * production client secret is never printed: the go-live review shows it once, when it issues it.
 */
export function startupBanner(sandbox: Sandbox, controlToken?: string): string {
  const lines = ['dcbkit sandbox is running (mock operator: no money moves)'];
  // With a control token, the dashboard link carries it once; the page then keeps it in a cookie.
  const entry = controlToken === undefined ? '' : `?control_token=${encodeURIComponent(controlToken)}`;
  const { sandbox: test, production: live } = sandbox.environments;
  const [first] = sandbox.config.applications;
  const liveClientId = first ? productionOf(first, sandbox.config.subscriberUidKey).clientId : '';
  const credentials = {
    sandbox: [
      `  Client ID          ${test.credentials.clientId}`,
      `  Client secret      ${test.credentials.clientSecret}`,
    ],
    production: live.isLive()
      ? [
          `  Client ID          ${liveClientId}`,
          '  Client secret      (shown once, when its go-live review passed)',
        ]
      : ['  Client ID, secret  (none yet: Approve on the dashboard issues them; the secret is shown once)'],
  };
  for (const env of [test, live]) {
    lines.push(
      '',
      env.name === 'sandbox'
        ? 'Sandbox environment'
        : `Production environment (emulated; ${env.isLive() ? 'live' : 'not live until approved: use the dashboard'})`,
      `  API base URL       ${env.apiBaseUrl}`,
      `  Checkout base URL  ${env.checkoutBaseUrl}`,
      `  Dashboard          ${env.apiBaseUrl}/sandbox${entry}`,
      ...credentials[env.name],
      `  Webhook secret     ${env.webhookSecret()}`,
      `  Webhook URL        ${env.webhookUrl() ?? '(none: events are recorded at /sandbox/webhooks, not posted)'}`,
    );
  }
  return lines.join('\n');
}
