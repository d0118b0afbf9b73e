import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKoaRoutes, createKoaWebhook } from '@dcbkit/koa';
import type { Sandbox } from '@dcbkit/sandbox';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import { type Billing, startBilling, WEBHOOK_PATH } from './billing.js';
import { readShopConfig, type ShopConfig } from './config.js';
import { createLogger, type ShopLogger } from './logger.js';
import { type OperatorAccess, operatorAccessOf } from './ops/operator-password.js';
import { requestLog } from './request-log.js';
import { accountRoutes } from './routes/account.js';
import { accountKeyOf, authRoutes } from './routes/auth.js';
import { checkoutRoutes } from './routes/checkout.js';
import { healthRoutes } from './routes/health.js';
import { renderKitError, renderKitView } from './routes/kit-views.js';
import { languageRoutes } from './routes/language.js';
import { offersRoutes } from './routes/offers.js';
import { opsRoutes } from './routes/ops.js';
import { premiumRoutes } from './routes/premium.js';
import { securityHeaders } from './security.js';
import { sessionMiddleware, signInIdOf } from './session.js';
import { staticFiles } from './static-files.js';
import { createViews } from './views.js';

export interface ShopAppOptions {
  billing: Billing;
  /** The address browsers use for the shop (its origin is the only one allowed to post forms). */
  publicUrl: string;
  sessionSecret: string;
  trustProxy: number;
  logger: ShopLogger;
  /** The operations view's password (/ops); undefined turns the view off. */
  operatorAccess?: OperatorAccess | undefined;
}

/** The Koa app: every page and route of the shop, over a running billing environment. */
export function createShopApp({
  billing,
  publicUrl,
  sessionSecret,
  trustProxy,
  logger,
  operatorAccess,
}: ShopAppOptions): Koa {
  const { kit, checkoutBaseUrl } = billing;
  const publicOrigin = new URL(publicUrl).origin;
  const https = new URL(publicUrl).protocol === 'https:';
  const views = createViews({ kit, sandbox: billing.sandbox !== undefined });

  const app = new Koa();
  // Behind a proxy that terminates TLS, ctx.secure (and so the Secure cookie) needs this.
  if (trustProxy > 0) {
    app.proxy = true;
    app.maxIpsCount = trustProxy;
  }
  // Errors the handler below cannot catch (a broken socket, say) go to the log, not to stderr.
  app.on('error', (error: unknown) => logger.error({ err: error }, 'request failed'));

  // The load balancer's probes come first: no log line, no session, no sign-in.
  app.use(healthRoutes({ kit, logger }).routes());
  app.use(requestLog(logger));
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      // The log has the detail; the page never shows a stack or a message from the inside.
      logger.error({ err: error, req: { method: ctx.method, url: ctx.originalUrl } }, 'request failed');
      if (ctx.headerSent) return;
      views.render(ctx, 'error', { kind: 'error.generic' }, 500);
    }
  });

  // The webhook reads the raw body to check its signature: it goes before any body parser.
  const webhook = new Router();
  webhook.post(WEBHOOK_PATH, createKoaWebhook(kit.webhook));
  app.use(webhook.routes());

  app.use(securityHeaders({ checkoutBaseUrl, https }));
  app.use(staticFiles('/static/'));
  app.use(sessionMiddleware(app, { secret: sessionSecret, secure: https }));
  // Forms only (no JSON): the pages post nothing else.
  app.use(bodyParser({ enableTypes: ['form'], formLimit: '16kb' }));

  const dcb = createKoaRoutes({
    routes: kit.routes,
    signedInAccount: accountKeyOf,
    sessionId: signInIdOf,
    render: renderKitView(views),
    renderError: renderKitError(views),
    offersPage: '/',
  });

  for (const router of [
    languageRoutes(),
    authRoutes({ views, shopOrigin: publicOrigin }),
    offersRoutes({ kit, views, embedded: checkoutBaseUrl !== undefined }),
    checkoutRoutes({ dcb }),
    accountRoutes({ kit, dcb, views }),
    premiumRoutes({ dcb, views }),
  ]) {
    app.use(router.routes());
  }
  app.use(
    opsRoutes({
      kit,
      views,
      reconciler: billing.reconciler,
      shopOrigin: publicOrigin,
      access: operatorAccess,
      logger,
    }).routes(),
  );

  // No route answered: a page in the visitor's language rather than Koa's plain "Not Found".
  app.use((ctx) => views.render(ctx, 'error', { kind: 'error.notFound' }, 404));
  return app;
}

export interface StartShopOptions {
  /** Environment variables (default process.env): PORT, SESSION_SECRET, DATABASE_URL, DCB_*… */
  env?: Readonly<Record<string, string | undefined>>;
  /** Overrides PORT; 0 picks a free port (tests). */
  port?: number;
  /** Overrides LOG_LEVEL ('silent' in tests). */
  logLevel?: string;
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
 * serves the pages.
 */
export async function startShop(options: StartShopOptions = {}): Promise<RunningShop> {
  const config = readShopConfig(options.env ?? process.env);
  const logger = createLogger(options.logLevel ?? config.logLevel);
  const port = options.port ?? config.port;

  // Listen first: the return URL and the sandbox's webhook URL need the port.
  const server = createServer();
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
  const app = createShopApp({
    billing,
    publicUrl,
    sessionSecret,
    trustProxy: config.trustProxy,
    logger,
    operatorAccess,
  });
  server.on('request', app.callback());

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
