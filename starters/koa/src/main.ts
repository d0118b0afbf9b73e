import { isDcbError } from '@dcbkit/core';
import { startShop } from './app.js';
import { ShopConfigError } from './config.js';

// `pnpm start`: starts the shop and prints the one address to open. A wrong configuration is one
// clear message and exit code 1, never a stack.
try {
  const shop = await startShop();
  console.log(`Shop running at ${shop.url}\n  billing: ${shop.description}\n  (Ctrl+C to stop)`);
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
    console.error(`The port is already in use: set PORT to another one (PORT=3001 pnpm start).`);
  } else {
    console.error(`The shop cannot start: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
}

function isPortInUse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EADDRINUSE';
}
