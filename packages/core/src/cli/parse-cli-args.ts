// node:util's parseArgs, not a CLI library: @dcbkit/core takes no dependency for one command.
import { parseArgs } from 'node:util';
import { DcbError } from '../errors/dcb-error.js';
import { optionError } from '../errors/option-error.js';

/** How long each probe waits for its answer by default: the kit's own processing timeout. */
export const DEFAULT_TIMEOUT_MS = 10_000;
export const MIN_TIMEOUT_MS = 100;
/** Above this the probes signed minutes from now would age past their margin while waiting. */
export const MAX_TIMEOUT_MS = 30_000;

export interface DoctorArgs {
  command: 'doctor';
  url: string;
  /** Non-empty; the first signs. */
  secrets: string[];
  timeoutMs: number;
  json: boolean;
}

export type CliArgs = DoctorArgs | { command: 'help' };

type Env = Readonly<Record<string, string | undefined>>;

const WHERE = 'dcbkit doctor';

/**
 * Reads `dcbkit doctor <webhook-url> [--secret …] [--timeout-ms …] [--json]`, the secret falling
 * back to DCB_WEBHOOK_SECRET. Throws a DcbError `invalid_option` naming the flag or argument.
 */
export function parseCliArgs(argv: readonly string[], env: Env): CliArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    // parseArgs' own message names the flag: "Unknown option '--secert'".
    throw new DcbError('invalid_option', `dcbkit: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  const [command, url, ...extra] = positionals;
  if (command !== 'doctor') {
    throw optionError(
      'dcbkit',
      'command',
      command === undefined
        ? 'is missing: dcbkit doctor <webhook-url>.'
        : `"${command}" is unknown; the command is doctor.`,
    );
  }
  if (url === undefined)
    throw optionError(WHERE, '<webhook-url>', 'is missing: the URL your webhook route is deployed at.');
  if (extra.length > 0) throw optionError(WHERE, 'arguments', `take one URL; also got "${extra.join(' ')}".`);
  return {
    command,
    url: checkedUrl(url),
    secrets: secretsOf(values.secret ?? env.DCB_WEBHOOK_SECRET),
    timeoutMs: timeoutOf(values['timeout-ms']),
    json: values.json,
  };
}

function checkedUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw optionError(WHERE, '<webhook-url>', `must be an absolute http(s) URL; got "${text}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw optionError(WHERE, '<webhook-url>', `must be an http(s) URL; got "${text}".`);
  }
  return url.href;
}

/** `whsec_new, whsec_old` as the kit reads DCB_WEBHOOK_SECRET: split at commas, trimmed. */
function secretsOf(value: string | undefined): string[] {
  const secrets = (value ?? '')
    .split(',')
    .map((secret) => secret.trim())
    .filter((secret) => secret !== '');
  if (secrets.length === 0) {
    throw optionError(
      WHERE,
      '--secret',
      "is missing: pass --secret or set DCB_WEBHOOK_SECRET to this environment's signing secret from the partner console.",
    );
  }
  return secrets;
}

function timeoutOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  const ms = Number(value);
  if (!/^[0-9]+$/.test(value) || ms < MIN_TIMEOUT_MS || ms > MAX_TIMEOUT_MS) {
    throw optionError(
      WHERE,
      '--timeout-ms',
      `must be a whole number of milliseconds from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS}; got "${value}".`,
    );
  }
  return ms;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: {
      secret: { type: 'string' },
      'timeout-ms': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
