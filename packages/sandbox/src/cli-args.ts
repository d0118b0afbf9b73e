import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Sandbox } from './start-sandbox.js';

/** The CLI's default port, so that `npx dcbkit-sandbox` gives the same URLs every time. */
export const DEFAULT_PORT = 4010;

export const CLI_HELP = `Usage: dcbkit-sandbox [--port ${DEFAULT_PORT}] [--production-port PORT+1] [--host 127.0.0.1]
                      [--config FILE] [--state FILE] [--webhook-url URL] [--production-webhook-url URL]
                      [--control-token TOKEN]

Runs a local emulator of the hosted carrier-billing service, in both environments: the sandbox
(svc_test_ credentials) and an emulated production (svc_live_ credentials, live once approved).
API, checkout host, mock operator (no money moves), signed webhooks. Open the printed dashboard URL
to pay for an offer in a browser.
  --port                    sandbox environment port (default: $PORT, else ${DEFAULT_PORT}; 0 picks a free one)
  --production-port         production environment port (default: the sandbox port + 1, or free with 0)
  --host                    address to listen on (default 127.0.0.1; 0.0.0.0 to reach it from a phone,
                            which needs a control token)
  --control-token           required on the control endpoints (/sandbox/…) (default:
                            $DCBKIT_SANDBOX_CONTROL_TOKEN); needed to listen beyond loopback
  --config                  a JSON config file (default: the built-in demo config); its JSON Schema is
                            @dcbkit/sandbox/config-schema.json
  --state                   keep payments, subscriptions, clock and events in this file across restarts
  --webhook-url             where to post every application's sandbox webhooks
  --production-webhook-url  where to post every application's production webhooks
  --version                 print the version
Exit codes: 0 stopped cleanly, 1 failure, 2 usage error, 3 port in use, 4 config or state file error.`;

/** A command line (or PORT) the CLI cannot run with. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

export interface CliArgs {
  port: number;
  productionPort?: number;
  host: string;
  config?: string;
  statePath?: string;
  webhookUrl?: string;
  productionWebhookUrl?: string;
  controlToken?: string;
}

const webhookUrlSchema = z.url({ protocol: /^https?$/ });

function portOf(value: string, what: string): number {
  const port = Number(value);
  if (!/^[0-9]+$/.test(value) || port > 65_535) {
    throw new CliUsageError(`${what} must be a whole number from 0 to 65535, not "${value}".`);
  }
  return port;
}

function urlOf(value: string, what: string): string {
  if (!webhookUrlSchema.safeParse(value).success) {
    throw new CliUsageError(`${what} must be an http(s) URL, not "${value}".`);
  }
  return value;
}

/**
 * Reads the command line and the PORT variable (the flag wins); `help` or `version` when asked
 * for. Throws CliUsageError on an unknown flag or a bad value.
 */
export function parseCliArgs(
  argv: string[],
  env: Record<string, string | undefined> = {},
): CliArgs | 'help' | 'version' {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  if (values.version) return 'version';
  const port =
    values.port !== undefined
      ? portOf(values.port, '--port')
      : env.PORT !== undefined && env.PORT !== ''
        ? portOf(env.PORT, 'PORT')
        : DEFAULT_PORT;
  return {
    port,
    host: values.host,
    ...(values['production-port'] !== undefined
      ? { productionPort: portOf(values['production-port'], '--production-port') }
      : {}),
    ...(values.config !== undefined ? { config: values.config } : {}),
    ...(values.state !== undefined ? { statePath: values.state } : {}),
    ...(values['webhook-url'] !== undefined
      ? { webhookUrl: urlOf(values['webhook-url'], '--webhook-url') }
      : {}),
    ...(values['production-webhook-url'] !== undefined
      ? { productionWebhookUrl: urlOf(values['production-webhook-url'], '--production-webhook-url') }
      : {}),
    ...controlTokenOf(values['control-token'] ?? env.DCBKIT_SANDBOX_CONTROL_TOKEN),
  };
}

function controlTokenOf(value: string | undefined): { controlToken?: string } {
  if (value === undefined || value === '') return {};
  if (value.length < 16) throw new CliUsageError('--control-token must be at least 16 characters.');
  return { controlToken: value };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      'production-port': { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      config: { type: 'string' },
      state: { type: 'string' },
      'webhook-url': { type: 'string' },
      'production-webhook-url': { type: 'string' },
      'control-token': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'v', default: false },
    },
  });
}

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
