import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createShopApp } from '#framework';
import { type Billing, startBilling } from '../billing.js';
import { readShopConfig } from '../config.js';
import { createLogger } from '../logger.js';
import type { OperatorAccess } from '../ops/operator-password.js';

/** The shop on its embedded sandbox, with its billing at hand so a test can reach into the kit. */
export interface ShopUnderTest {
  /** Where it listens: the embedded sandbox posts its webhooks and sends its buyers back here. */
  url: string;
  /** The app itself, for supertest's `request(shop.app)` as a partner's own tests would write. */
  app: RequestListener;
  billing: Billing;
  close(): Promise<void>;
}

/** The operator password of the tests. */
export const TEST_OPERATOR: OperatorAccess = { password: 'an-operator-password-for-tests', generated: false };

/**
 * Starts the shop as startShop does, on a free loopback port, with TEST_OPERATOR's password;
 * `operations: false` is a shop on the real service without OPERATOR_PASSWORD: no /ops; `env`
 * with DCB_* variables, a shop on a standalone sandbox as on the real service.
 */
export async function shopUnderTest({
  operations = true,
  env = {},
}: {
  operations?: boolean;
  /** The environment variables (default none: the embedded sandbox); DCB_* ones: the real service's mode. */
  env?: Record<string, string>;
} = {}): Promise<ShopUnderTest> {
  const logger = createLogger('silent');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const billing = await startBilling({ config: readShopConfig(env), shopUrl: url, logger });
  const app = createShopApp({
    billing,
    publicUrl: url,
    sessionSecret: 'a-session-secret-of-at-least-32-characters',
    trustProxy: 0,
    logger,
    operatorAccess: operations ? TEST_OPERATOR : undefined,
  });
  server.on('request', app);
  return {
    url,
    app,
    billing,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await billing.close();
    },
  };
}
