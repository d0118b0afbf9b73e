import { parseArgs } from 'node:util';
import { CliUsageError } from './parse-cli-args.js';

/** What `dcbkit-sandbox check` was asked to check, read from its command line. */
export interface CheckArgs {
  /** The app's base URL, on this machine. */
  appUrl: string;
  /** The app's webhook route. */
  webhookPath: string;
  /** The secret the app verifies with: the check's emulator signs with it. */
  webhookSecret: string;
  /** A path on the app with `{accountKey}` and `{productUid}`: 2xx with access, 403 or 404 without. */
  accessPath: string;
  /** A POST path on the app with `{accountKey}` and `{productUid}` that spends one unit, if any. */
  spendPath: string | undefined;
  /** Where to write the JUnit XML report, if anywhere. */
  junitPath: string | undefined;
  seed: number;
  /** The emulator's port (0: a free one). */
  port: number;
}

const OPTIONS = {
  'app-url': { type: 'string' },
  'webhook-path': { type: 'string', default: '/webhooks/dcb' },
  'webhook-secret': { type: 'string' },
  'access-url': { type: 'string' },
  'spend-url': { type: 'string' },
  junit: { type: 'string' },
  seed: { type: 'string', default: '1' },
  port: { type: 'string', default: '0' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function required(value: string | undefined, flag: string, example: string): string {
  if (value === undefined || value === '')
    throw new CliUsageError(`${flag} is required, e.g. ${flag} ${example}.`);
  return value;
}

function wholeNumber(value: string, flag: string, max: number): number {
  const number = Number(value);
  if (!/^[0-9]+$/.test(value) || number > max) {
    throw new CliUsageError(`${flag} must be a whole number from 0 to ${max}, not "${value}".`);
  }
  return number;
}

/** A URL template on the app as the path the check asks (`{accountKey}` is required in it). */
function templatePath(template: string, flag: string, app: URL): string {
  let url: URL;
  try {
    // The braces stay readable in the template: URL would percent-encode them.
    url = new URL(template.replaceAll('{', '%7B').replaceAll('}', '%7D'));
  } catch {
    throw new CliUsageError(`${flag} must be a URL on your app, not "${template}".`);
  }
  if (url.origin !== app.origin) {
    throw new CliUsageError(`${flag} must be on the app's origin ${app.origin}, not ${url.origin}.`);
  }
  const path = `${url.pathname}${url.search}`.replaceAll('%7B', '{').replaceAll('%7D', '}');
  if (!path.includes('{accountKey}')) {
    throw new CliUsageError(
      `${flag} must name the account as {accountKey} (and the product as {productUid}).`,
    );
  }
  return path;
}

/**
 * Reads `dcbkit-sandbox check …` (the words after `check`). `--access-url` must be on the app's
 * origin: it is asked as the app is, and named in the report by its path. Throws CliUsageError.
 */
export function parseCheckArgs(argv: string[]): CheckArgs | 'help' {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>['values'];
  try {
    values = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  const appUrl = required(values['app-url'], '--app-url', 'http://127.0.0.1:8000');
  let app: URL;
  try {
    app = new URL(appUrl);
  } catch {
    throw new CliUsageError(`--app-url must be a URL like http://127.0.0.1:8000, not "${appUrl}".`);
  }
  const webhookSecret = required(values['webhook-secret'], '--webhook-secret', '"$DCB_WEBHOOK_SECRET"');
  if (webhookSecret.length < 16) {
    throw new CliUsageError(
      '--webhook-secret must be the secret your app verifies with: 16 characters or more.',
    );
  }
  const accessUrl = required(
    values['access-url'],
    '--access-url',
    "'http://127.0.0.1:8000/access?account={accountKey}&product={productUid}'",
  );
  const accessPath = templatePath(accessUrl, '--access-url', app);
  const spendUrl = values['spend-url'];
  const spendPath = spendUrl === undefined ? undefined : templatePath(spendUrl, '--spend-url', app);
  const webhookPath = values['webhook-path'];
  if (!webhookPath.startsWith('/')) {
    throw new CliUsageError(`--webhook-path must be a path starting with '/', not "${webhookPath}".`);
  }
  return {
    appUrl: app.origin + app.pathname.replace(/\/$/, ''),
    webhookPath,
    webhookSecret,
    accessPath,
    spendPath,
    junitPath: values.junit,
    seed: wholeNumber(values.seed, '--seed', 2 ** 32 - 1),
    port: wholeNumber(values.port, '--port', 65_535),
  };
}

export const CHECK_HELP = `Usage: dcbkit-sandbox check --app-url URL --webhook-secret SECRET --access-url TEMPLATE
                           [--spend-url TEMPLATE] [--webhook-path /webhooks/dcb] [--junit FILE]
                           [--seed 1] [--port 0]

Runs the partner check against your app, whatever its language: an emulator of its own, signing
with your app's webhook secret, posts every event to --webhook-path with chaos (every event twice,
reordered, delayed, indented bodies, an outage then replays) while the check buys each kind of
offer as three accounts (the account in metadata.accountKey), and moves its clock through
renewals, a failed renewal and grace, a cancellation and an expiry. At each step it asks
--access-url for every account and product: 2xx means access, 403 or 404 none. With --spend-url,
it last spends every pass it bought (POST, 2xx while one is left, 4xx once none is): a unit
granted twice shows as one spend too many.

  --app-url          your app, on this machine: http://127.0.0.1:8000
  --webhook-secret   the secret your app verifies Service-Signature with (16 characters or more)
  --access-url       with {accountKey} and {productUid}, e.g.
                     'http://127.0.0.1:8000/access?account={accountKey}&product={productUid}'
  --spend-url        POST, with {accountKey} and {productUid}: spends one unit of a pass
  --webhook-path     your webhook route (default /webhooks/dcb)
  --junit FILE       also write the findings as JUnit XML, for any CI
  --seed N           the chaos seed: the same seed gives the same deliveries (default 1)
  --port N           the emulator's API port (default 0: a free one)

Exit codes: 0 every check passed, 1 a finding (the report says what to fix), 2 usage error.`;
