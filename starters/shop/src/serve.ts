import { isDcbError } from '@dcbkit/core';
import { WEBHOOK_PATH } from './billing.js';
import { ShopConfigError } from './config.js';
import { type RunningShop, startShop } from './start-shop.js';

/**
 * Starts the shop and prints the one address to open (and the embedded sandbox's pages); when
 * `stopAsked` resolves, closes the server and the store and exits 0. A wrong configuration is one
 * clear message and exit code 1, never a stack.
 */
export async function serve(stopAsked: Promise<unknown>): Promise<never> {
  try {
    const shop = await startShop();
    const lines = [`Shop running at ${shop.url}`, `  billing: ${shop.description}`, ...emulatorWarning(shop)];
    if (shop.sandbox) {
      // The emulator's own pages: its dashboard (and clock controls) and the SMS inbox with the PINs.
      lines.push(
        `  sandbox: ${shop.sandbox.apiBaseUrl}/sandbox (dashboard, clock and control endpoints)`,
        `  SMS inbox: ${shop.sandbox.apiBaseUrl}/sandbox/inbox`,
      );
    }
    lines.push(...checkoutHostLines(shop), ...operationsLines(shop));
    console.log([...lines, '  (Ctrl+C to stop)'].join('\n'));
    await stopAsked;
    return await shop.close().then(
      () => {
        console.log('Shop stopped.');
        return process.exit(0);
      },
      (error: unknown) => {
        console.error(`The shop did not close cleanly: ${messageOf(error)}`);
        return process.exit(1);
      },
    );
  } catch (error) {
    if (error instanceof ShopConfigError) {
      console.error(error.message);
    } else if (isDcbError(error)) {
      // Once, and the fix first: what to change, then what the service said.
      const fix = VARIABLES_TO_CHECK[error.code];
      console.error(
        fix === undefined
          ? `The shop cannot start: ${error.message}`
          : `The shop cannot start. ${fix}\n  ${error.message}`,
      );
    } else if (isPortInUse(error)) {
      const port = Number((error as { port?: unknown }).port ?? process.env.PORT ?? 3000);
      console.error(
        `Port ${port} is already in use: set PORT to another one (PORT=${port + 1} ${packageManager()} start).`,
      );
    } else {
      console.error(`The shop cannot start: ${messageOf(error)}`);
    }
    return process.exit(1);
  }
}

/** On the emulator in production (allowed by ALLOW_EMBEDDED_SANDBOX=true): said at start, loudly. */
function emulatorWarning({ config }: RunningShop): string[] {
  if (config.mode !== 'embedded-sandbox' || config.productionSigns.length === 0) return [];
  return [
    `  EMULATOR IN PRODUCTION (${config.productionSigns.join(', ')}; ALLOW_EMBEDDED_SANDBOX=true): no real payment, purchases in memory; set the DCB_* variables to sell.`,
  ];
}

/**
 * Where the operations view is and how to sign in, and how often reconciliation runs. A password
 * this run made up is printed (it exists nowhere else); one from OPERATOR_PASSWORD never is.
 */
function operationsLines({ url, operatorAccess, reconcileEveryMinutes }: RunningShop): string[] {
  let operations = `  operations: off (set OPERATOR_PASSWORD to turn on ${url}/ops)`;
  if (operatorAccess?.generated) {
    operations = `  operations: ${url}/ops (password for this run: ${operatorAccess.password})`;
  } else if (operatorAccess !== undefined) {
    operations = `  operations: ${url}/ops (password: OPERATOR_PASSWORD)`;
  }
  const reconciling =
    reconcileEveryMinutes === 0
      ? '  reconciliation: off (RECONCILE_EVERY_MINUTES=0)'
      : `  reconciliation: every ${reconcileEveryMinutes} minutes`;
  return [operations, reconciling];
}

/**
 * On the real service, the checkout host the shop sends buyers to: nothing at start can tell a
 * wrong one (only a payment carries the service's), so it is said here, with the command that checks it.
 */
function checkoutHostLines({ config, url }: RunningShop): string[] {
  if (config.mode !== 'service') return [];
  const host = config.dcb.checkoutBaseUrl ?? 'any https host (DCB_CHECKOUT_BASE_URL not set)';
  const webhookUrl = new URL(WEBHOOK_PATH, config.dcb.returnUrl ?? url).href;
  return [`  checkout host: ${host}; check it: npx dcbkit doctor ${webhookUrl} --offer <offerUid>`];
}

/** The kit's startup refusals that a variable causes: which one to fix. */
const VARIABLES_TO_CHECK: Readonly<Record<string, string>> = {
  token_refused:
    'Fix DCB_CLIENT_ID and DCB_CLIENT_SECRET: the credentials of the DCB_ENV environment, as its console (or the sandbox) shows them.',
  wrong_base_url: 'Fix DCB_API_BASE_URL: the API root of the DCB_ENV environment, without /v1.',
  data_folder_in_use:
    'Stop the other process, or give this one its own DATA_DIR (or DATABASE_URL for several instances).',
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isPortInUse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EADDRINUSE';
}

/** The package manager that runs this script (npm, pnpm, yarn), so the hint is one the reader can type. */
function packageManager(): string {
  const agent = process.env.npm_config_user_agent ?? '';
  return ['pnpm', 'yarn', 'bun'].find((name) => agent.startsWith(`${name}/`)) ?? 'npm';
}
