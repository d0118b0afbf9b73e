// node:util's parseArgs, not a CLI library: @dcbkit/core takes no dependency for one command.
import { parseArgs } from 'node:util';
import { DcbError, isDcbError } from '../errors/dcb-error.js';
import { optionError } from '../errors/option-error.js';
import { configFromEnv, type DcbEnvConfig } from '../kit/config-from-env.js';

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
  /** `--offer`: open a checkout for this offer with the DCB_* variables, check its host, cancel it. */
  checkout?: CheckoutArgs;
}

export interface CheckoutArgs {
  offerUid: string;
  client: DcbEnvConfig['client'];
  /** DCB_RETURN_URL, else the webhook URL's origin: the payment is cancelled before anyone visits it. */
  returnUrl: string;
  checkoutBaseUrl: string | undefined;
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
  const webhookUrl = checkedUrl(url);
  const secrets = secretsOf(values.secret ?? env.DCB_WEBHOOK_SECRET);
  return {
    command,
    url: webhookUrl,
    secrets,
    timeoutMs: timeoutOf(values['timeout-ms']),
    json: values.json,
    ...(values.offer === undefined ? {} : { checkout: checkoutOf(values.offer, env, secrets, webhookUrl) }),
  };
}

/** `--offer` reads the app's DCB_* variables as the kit does (configFromEnv), every problem named. */
function checkoutOf(offerUid: string, env: Env, secrets: string[], webhookUrl: string): CheckoutArgs {
  if (offerUid.trim() === '')
    throw optionError(WHERE, '--offer', "must be an offerUid of this environment's catalogue.");
  let config: DcbEnvConfig;
  try {
    config = configFromEnv({ ...env, DCB_WEBHOOK_SECRET: secrets.join(',') });
  } catch (error) {
    if (!isDcbError(error, 'invalid_env')) throw error;
    const problems = error.details?.problems;
    throw optionError(
      WHERE,
      '--offer',
      `opens a checkout with the app's DCB_* variables, and they are not right:\n- ${(Array.isArray(problems) ? problems : [error.message]).join('\n- ')}`,
    );
  }
  return {
    offerUid: offerUid.trim(),
    client: config.client,
    returnUrl: config.returnUrl ?? new URL('/', webhookUrl).href,
    checkoutBaseUrl: config.checkoutBaseUrl,
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
      offer: { type: 'string' },
      'timeout-ms': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
