import { parseArgs } from 'node:util';
import { z } from 'zod';
import { SandboxError } from '../shared/sandbox-error.js';

/** The CLI's default port, so that `npx dcbkit-sandbox` gives the same URLs every time. */
export const DEFAULT_PORT = 4010;

/** A command line (or PORT) the CLI cannot run with. */
export class CliUsageError extends SandboxError<'invalid_command_line'> {
  static override readonly kind: string = 'CliUsageError';
  override readonly name: string = 'CliUsageError';

  constructor(message: string) {
    super('invalid_command_line', message);
  }
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
