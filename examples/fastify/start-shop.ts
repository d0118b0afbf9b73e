import { createServer } from 'node:net';
import { createDcbKit, type DcbKit } from '@dcbkit/core';
import { offerDefinitionsOf, type Sandbox, type StartSandboxOptions, startSandbox } from '@dcbkit/sandbox';
import { buildShop } from './shop.js';

export interface RunningShop {
  /** The shop's address, e.g. http://127.0.0.1:3000. */
  url: string;
  kit: DcbKit;
  sandbox: Sandbox;
  close(): Promise<void>;
}

export interface StartShopOptions {
  /** The shop's port; default: a free one. */
  port?: number;
  /** The sandbox's clock; a test freezes it. Default: real time. */
  clock?: StartSandboxOptions['clock'];
}

/**
 * The shop on the embedded sandbox, the emulator of the service, both on loopback ports of this
 * process: the sandbox posts its signed webhooks to the shop as the real service would.
 */
export async function startShop(options: StartShopOptions = {}): Promise<RunningShop> {
  // The return URL is the kit's from the start, so the port is chosen before the shop listens.
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    clock: options.clock,
    webhookUrl: `${url}/webhooks/dcb`,
  });
  try {
    const { clientId, clientSecret, webhookSecret } = sandbox.credentials;
    const { clock } = sandbox;
    const kit = createDcbKit({
      client: { environment: 'sandbox', baseUrl: sandbox.apiBaseUrl, clientId, clientSecret },
      webhookSecrets: webhookSecret,
      // The sandbox's catalogue; a live shop lists its own offers here (defineOffers).
      offers: offerDefinitionsOf(sandbox.config),
      returnUrl: `${url}/billing/return`,
      // The sandbox's clock, which its control endpoints (and a test) move: access is judged by
      // the same time as the events it sends.
      now: () => clock.now(),
    });
    await kit.checkConnection();
    const app = await buildShop(kit);
    await app.listen({ port, host: '127.0.0.1' });
    return {
      url,
      kit,
      sandbox,
      close: async () => {
        await app.close();
        await sandbox.close();
      },
    };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
    server.on('error', reject);
  });
}
