import { isDcbError } from '@dcbkit/core';
import { startShop } from './app.js';
import { ShopConfigError } from './config.js';

// `pnpm start`: starts the shop and prints the one address to open. A wrong configuration is one
// clear message and exit code 1, never a stack.
try {
  const shop = await startShop();
  const lines = [`Shop running at ${shop.url}`, `  billing: ${shop.description}`];
  if (shop.sandbox) {
    // The emulator's own pages: its dashboard (and clock controls) and the SMS inbox with the PINs.
    lines.push(
      `  sandbox: ${shop.sandbox.apiBaseUrl}/sandbox (dashboard, clock and control endpoints)`,
      `  SMS inbox: ${shop.sandbox.apiBaseUrl}/sandbox/inbox`,
    );
  }
  console.log([...lines, '  (Ctrl+C to stop)'].join('\n'));
  const stop = () => {
    shop.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  if (error instanceof ShopConfigError || isDcbError(error)) {
    console.error(error.message);
  } else if (isPortInUse(error)) {
    const port = Number((error as { port?: unknown }).port ?? process.env.PORT ?? 3000);
    console.error(
      `Port ${port} is already in use: set PORT to another one (PORT=${port + 1} ${packageManager()} start).`,
    );
  } else {
    console.error(`The shop cannot start: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
}

function isPortInUse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EADDRINUSE';
}

/** The package manager that runs this script (npm, pnpm, yarn), so the hint is one the reader can type. */
function packageManager(): string {
  const agent = process.env.npm_config_user_agent ?? '';
  return ['pnpm', 'yarn', 'bun'].find((name) => agent.startsWith(`${name}/`)) ?? 'npm';
}
