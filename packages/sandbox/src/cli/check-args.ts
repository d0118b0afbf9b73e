import { parseArgs } from 'node:util';
import { CliUsageError, DEFAULT_PORT } from './parse-cli-args.js';

interface CommonCheckArgs {
  /** Where to write the JUnit XML report, if anywhere. */
  junitPath: string | undefined;
  /** The chaos seed, when given on the command line. */
  seed: number | undefined;
  /** The emulator's port (0: a free one). */
  port: number;
}

/** A webhook receiver in any language: the check makes the purchases and asks its access URL. */
export interface ReceiverCheckArgs extends CommonCheckArgs {
  kind: 'receiver';
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
}

/** An app with pages, described by a config file: the check buys through its checkout as three accounts. */
export interface AppCheckArgs extends CommonCheckArgs {
  kind: 'app';
  configPath: string;
  /** Overrides the config's webhookSecret. */
  webhookSecret: string | undefined;
  /** How long to wait for the app to answer once the emulator runs (the app is started against it). */
  waitSeconds: number;
}

/** What `dcbkit-sandbox check` was asked to check, read from its command line. */
export type CheckArgs = ReceiverCheckArgs | AppCheckArgs;

const OPTIONS = {
  'app-url': { type: 'string' },
  'webhook-path': { type: 'string', default: '/webhooks/dcb' },
  'webhook-secret': { type: 'string' },
  'access-url': { type: 'string' },
  'spend-url': { type: 'string' },
  junit: { type: 'string' },
  seed: { type: 'string' },
  port: { type: 'string' },
  config: { type: 'string' },
  wait: { type: 'string', default: '60' },
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
  const common = {
    junitPath: values.junit,
    seed: values.seed === undefined ? undefined : wholeNumber(values.seed, '--seed', 2 ** 32 - 1),
  };
  const secret = values['webhook-secret'];
  if (secret !== undefined && secret.length < 16) {
    throw new CliUsageError(
      '--webhook-secret must be the secret your app verifies with: 16 characters or more.',
    );
  }
  if (values.config !== undefined) {
    for (const flag of ['app-url', 'access-url', 'spend-url'] as const) {
      if (values[flag] !== undefined)
        throw new CliUsageError(`--${flag} goes in the --config file (appUrl, products).`);
    }
    return {
      kind: 'app',
      ...common,
      configPath: values.config,
      webhookSecret: secret,
      // The app is configured against the emulator before it starts: a port known in advance.
      port: wholeNumber(values.port ?? String(DEFAULT_PORT), '--port', 65_535),
      waitSeconds: wholeNumber(values.wait, '--wait', 3600),
    };
  }
  const appUrl = required(values['app-url'], '--app-url', 'http://127.0.0.1:8000');
  let app: URL;
  try {
    app = new URL(appUrl);
  } catch {
    throw new CliUsageError(`--app-url must be a URL like http://127.0.0.1:8000, not "${appUrl}".`);
  }
  const webhookSecret = required(secret, '--webhook-secret', '"$DCB_WEBHOOK_SECRET"');
  const accessUrl = required(
    values['access-url'],
    '--access-url',
    "'http://127.0.0.1:8000/access?account={accountKey}&product={productUid}' (or --config FILE for an app with pages)",
  );
  const accessPath = templatePath(accessUrl, '--access-url', app);
  const spendUrl = values['spend-url'];
  const spendPath = spendUrl === undefined ? undefined : templatePath(spendUrl, '--spend-url', app);
  const webhookPath = values['webhook-path'];
  if (!webhookPath.startsWith('/')) {
    throw new CliUsageError(`--webhook-path must be a path starting with '/', not "${webhookPath}".`);
  }
  return {
    kind: 'receiver',
    ...common,
    appUrl: app.origin + app.pathname.replace(/\/$/, ''),
    webhookPath,
    webhookSecret,
    accessPath,
    spendPath,
    port: wholeNumber(values.port ?? '0', '--port', 65_535),
  };
}

export const CHECK_HELP = `Usage: dcbkit-sandbox check --app-url URL --webhook-secret SECRET --access-url TEMPLATE
                           [--spend-url TEMPLATE] [--webhook-path /webhooks/dcb] [--junit FILE]
                           [--seed 1] [--port 0]
       dcbkit-sandbox check --config partner-check.json [--webhook-secret SECRET] [--port 4010]
                           [--wait 60] [--junit FILE] [--seed 1]

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
  --port N           the emulator's API port (default 0: a free one; 4010 with --config)

With --config, the app has pages (a sign-in, a checkout form, a return page, pages behind an
access gate) and the check buys through them as a browser would, as runPartnerCheck does. The
file names appUrl, signIn ({ path, fields, page? }, {accountKey} in a field's value), accounts,
paths and products (docs/any-language.md). Start the check first: it prints the emulator's API
base and credentials; start your app against them, and the check waits --wait seconds for it.

Exit codes: 0 every check passed, 1 a finding (the report says what to fix), 2 usage error.`;
