import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '@dcbkit/sandbox';
import { createShopApp } from '#framework';
import { type Billing, startBilling } from './billing.js';
import { readShopConfig, type ShopConfig } from './config.js';
import { createLogger } from './logger.js';
import { type OperatorAccess, operatorAccessOf } from './ops/operator-password.js';
import type { CreateShopApp } from './shop-parts.js';
import { answerWhileStarting } from './starting-answer.js';

export interface StartShopOptions {
  /** Environment variables (default process.env): PORT, SESSION_SECRET, DATABASE_URL, DCB_*… */
  env?: Readonly<Record<string, string | undefined>>;
  /** Overrides PORT; 0 picks a free port (tests). */
  port?: number;
  /** Overrides LOG_LEVEL ('silent' in tests). */
  logLevel?: string;
  /**
   * The framework's part of the app. Default: this app's, `#framework` in package.json (in the
   * dcbkit repository, Koa's under the `koa` condition and Express's otherwise); the repository's
   * tests pass each framework's to run both shops side by side.
   */
  createApp?: CreateShopApp;
}

export interface RunningShop {
  /** The address to open. */
  url: string;
  /** The embedded sandbox, when the shop runs one (tests read its SMS inbox and webhooks). */
  sandbox: Sandbox | undefined;
  config: ShopConfig;
  /** Words for the startup line. */
  description: string;
  /** The operations view's password, or undefined when the view is off (no OPERATOR_PASSWORD on the real service). */
  operatorAccess: OperatorAccess | undefined;
  /** Minutes between reconciliation runs; 0: off. */
  reconcileEveryMinutes: number;
  close(): Promise<void>;
}

/**
 * Starts the shop: reads the environment (throws ShopConfigError listing every problem), listens,
 * starts the billing environment (the embedded sandbox unless DCB_* variables are set), then
 * serves the app the framework's part (src/framework/<name>/) makes of the shop.
 */
export async function startShop(options: StartShopOptions = {}): Promise<RunningShop> {
  const config = readShopConfig(options.env ?? process.env);
  const logger = createLogger(options.logLevel ?? config.logLevel);
  const port = options.port ?? config.port;

  // Listen first: the return URL and the sandbox's webhook URL need the port.
  const server = createServer();
  const attach = answerWhileStarting(server);
  await listen(server, port, config.host);
  const { port: actualPort } = server.address() as AddressInfo;
  const url = `http://${urlHost(config.host)}:${actualPort}`;

  let billing: Billing;
  try {
    billing = await startBilling({ config, shopUrl: url, logger });
  } catch (error) {
    await closeServer(server);
    throw error;
  }
  const publicUrl = config.mode === 'service' && config.dcb.returnUrl ? config.dcb.returnUrl : url;
  // On the embedded sandbox a session secret may be left out: a random one per run.
  const sessionSecret = config.sessionSecret ?? randomBytes(32).toString('base64url');
  const operatorAccess = operatorAccessOf(config);
  const app = (options.createApp ?? createShopApp)({
    billing,
    publicUrl,
    sessionSecret,
    trustProxy: config.trustProxy,
    logger,
    operatorAccess,
  });
  attach(app);

  return {
    url,
    sandbox: billing.sandbox,
    config,
    description: billing.description,
    operatorAccess,
    reconcileEveryMinutes: billing.reconciler.everyMinutes,
    async close() {
      await closeServer(server);
      await billing.close();
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** 0.0.0.0 and :: listen everywhere; the address to open on this machine is the loopback one. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
