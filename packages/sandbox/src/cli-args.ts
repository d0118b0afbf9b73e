import { parseArgs } from 'node:util';
import { SandboxConfigError } from './config/load-config.js';
import type { Sandbox } from './start-sandbox.js';

/** The CLI's default port, so that `npx dcbkit-sandbox` gives the same URLs every time. */
export const DEFAULT_PORT = 4010;

export const CLI_HELP = `Usage: dcbkit-sandbox [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--config FILE] [--webhook-url URL]

Runs a local emulator of the hosted carrier-billing service: API, checkout host, mock operator,
signed webhooks. Open the printed dashboard URL to pay for an offer in a browser.
  --port         port to listen on (0 picks a free one)
  --host         address to listen on (default 127.0.0.1; 0.0.0.0 to reach it from a phone)
  --config       a JSON config file (default: the built-in demo config)
  --webhook-url  where to post every application's webhooks`;

export interface CliArgs {
  port: number;
  host: string;
  config?: string;
  webhookUrl?: string;
}

/** Reads the command line; `help` when asked for it. Throws SandboxConfigError on a bad value. */
export function parseCliArgs(argv: string[]): CliArgs | 'help' {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new SandboxConfigError(`${error instanceof Error ? error.message : String(error)}\n\n${CLI_HELP}`);
  }
  if (values.help) return 'help';
  const port = Number(values.port);
  if (!/^[0-9]+$/.test(values.port) || port > 65_535)
    throw new SandboxConfigError(`Invalid port ${values.port}.`);
  return {
    port,
    host: values.host,
    ...(values.config !== undefined ? { config: values.config } : {}),
    ...(values['webhook-url'] !== undefined ? { webhookUrl: values['webhook-url'] } : {}),
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string', default: String(DEFAULT_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
      config: { type: 'string' },
      'webhook-url': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

/** What the CLI prints once the sandbox listens: where it is and the demo credentials. */
export function startupBanner(sandbox: Sandbox): string {
  const webhookUrl = sandbox.config.applications[0]?.webhook.url ?? null;
  return [
    'dcbkit sandbox is running (no money moves)',
    `  API base URL       ${sandbox.apiBaseUrl}`,
    `  Checkout base URL  ${sandbox.checkoutBaseUrl}`,
    `  Dashboard          ${sandbox.apiBaseUrl}/sandbox`,
    `  Client ID          ${sandbox.credentials.clientId}`,
    `  Client secret      ${sandbox.credentials.clientSecret}`,
    `  Webhook secret     ${sandbox.credentials.webhookSecret}`,
    `  Webhook URL        ${webhookUrl ?? '(none: events are recorded at /sandbox/webhooks, not posted)'}`,
  ].join('\n');
}
