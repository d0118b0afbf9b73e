import type { Sandbox } from '../sandbox/start-sandbox.js';

/** What the CLI prints once the sandbox listens: where each environment is and its credentials. */
export function startupBanner(sandbox: Sandbox, controlToken?: string): string {
  const lines = ['dcbkit sandbox is running (mock operator: no money moves)'];
  // With a control token, the dashboard link carries it once; the page then keeps it in a cookie.
  const entry = controlToken === undefined ? '' : `?control_token=${encodeURIComponent(controlToken)}`;
  for (const env of [sandbox.environments.sandbox, sandbox.environments.production]) {
    const webhookUrl = env.webhookUrl();
    lines.push(
      '',
      env.name === 'sandbox'
        ? 'Sandbox environment'
        : `Production environment (emulated; ${env.isLive() ? 'live' : 'not live until approved: use the dashboard'})`,
      `  API base URL       ${env.apiBaseUrl}`,
      `  Checkout base URL  ${env.checkoutBaseUrl}`,
      `  Dashboard          ${env.apiBaseUrl}/sandbox${entry}`,
      `  Client ID          ${env.credentials.clientId}`,
      `  Client secret      ${env.credentials.clientSecret}`,
      `  Webhook secret     ${env.credentials.webhookSecret}`,
      `  Webhook URL        ${webhookUrl ?? '(none: events are recorded at /sandbox/webhooks, not posted)'}`,
    );
  }
  return lines.join('\n');
}
