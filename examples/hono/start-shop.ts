import type { AddressInfo } from 'node:net';
import { createDcbKit, type DcbKit } from '@dcbkit/core';
import { offerDefinitionsOf, type Sandbox, type StartSandboxOptions, startSandbox } from '@dcbkit/sandbox';
import { serve } from '@hono/node-server';
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
 * process: the sandbox posts its signed webhooks to the shop as the real service would. The shop
 * listens first (on `port`, or a free one), so that the return URL and the webhook URL name it.
 */
export async function startShop(options: StartShopOptions = {}): Promise<RunningShop> {
  let app: ReturnType<typeof buildShop> | undefined;
  const server = serve({
    fetch: (request) => app?.fetch(request) ?? new Response('starting', { status: 503 }),
    port: options.port ?? 0,
    hostname: '127.0.0.1',
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
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
    app = buildShop(kit);
    return {
      url,
      kit,
      sandbox,
      close: async () => {
        await closeServer();
        await sandbox.close();
      },
    };
  } catch (error) {
    await sandbox.close();
    await closeServer();
    throw error;
  }
}
