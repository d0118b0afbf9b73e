/**
 * The Next.js example as a partner ships it: `next build` with no DCB_* variable set (the kits are
 * made at the first request, not at import), then `next start` against the embedded sandbox. A
 * subscriber pays once (checkout on the Node runtime, the sandbox's checkout pages through
 * createCheckoutDriver, the return page); the sandbox's signed webhooks land on the route that
 * runs on the Edge runtime, which verifies and applies them: one unit granted, a duplicate
 * answered without a second grant, a tampered copy refused 401. Offline: the app fetches nothing.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createCheckoutNonce } from '@dcbkit/core/node';
import { signWebhook } from '@dcbkit/core/webhooks';
import { createCheckoutDriver, createClock, type Sandbox, startSandbox } from '@dcbkit/sandbox/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test-support/free-port.js';

const run = promisify(execFile);
const app = fileURLToPath(new URL('.', import.meta.url));
const nextBin = fileURLToPath(new URL('../node_modules/next/dist/bin/next', import.meta.url));
// Next.js resolves the packages as a partner's app does: their built dist/, not their sources.
const builtEntries = ['core/dist/web.js', 'core/dist/index.js', 'next/dist/index.js'].map((file) =>
  fileURLToPath(new URL(`../../packages/${file}`, import.meta.url)),
);
const built = builtEntries.every((entry) => existsSync(entry));

const BUILD_TIMEOUT_MS = 240_000;
const STARTUP_MS = 60_000;

/** This process's environment without a single DCB_* variable, and without Next.js's telemetry. */
function environmentWithoutDcb(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DCB_')));
  return { ...env, NEXT_TELEMETRY_DISABLED: '1' };
}

async function waitUntilServing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`next start did not answer within ${STARTUP_MS} ms:\n${output()}`);
}

// CI builds before it tests (`pnpm test`); locally a missing build skips, saying so.
describe.skipIf(!built && !process.env.CI)(
  `the Next.js example, built and started${built ? '' : ' (skipped: run `pnpm build`)'}`,
  () => {
    let buildOutput = '';
    let sandbox: Sandbox;
    let server: ChildProcess | undefined;
    let serverOutput = '';
    let url = '';

    beforeAll(
      async () => {
        const build = await run(process.execPath, [nextBin, 'build'], {
          cwd: app,
          env: environmentWithoutDcb(),
          timeout: BUILD_TIMEOUT_MS,
        }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
          throw new Error(
            `next build failed: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`,
          );
        });
        buildOutput = `${build.stdout}\n${build.stderr}`;

        const port = await freePort();
        url = `http://127.0.0.1:${port}`;
        sandbox = await startSandbox({
          clock: createClock({ frozen: true }),
          webhookUrl: `${url}/webhooks/dcb`,
        });
        const { clientId, clientSecret, webhookSecret } = sandbox.credentials;
        server = spawn(
          process.execPath,
          [nextBin, 'start', '--hostname', '127.0.0.1', '--port', String(port)],
          {
            cwd: app,
            env: {
              ...environmentWithoutDcb(),
              DCB_ENV: 'sandbox',
              DCB_API_BASE_URL: sandbox.apiBaseUrl,
              DCB_CLIENT_ID: clientId,
              DCB_CLIENT_SECRET: clientSecret,
              DCB_WEBHOOK_SECRET: webhookSecret,
              DCB_CHECKOUT_BASE_URL: sandbox.checkoutBaseUrl,
              DCB_RETURN_URL: `${url}/billing/return`,
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        const record = (chunk: Buffer) => {
          serverOutput += chunk.toString('utf8');
        };
        server.stdout?.on('data', record);
        server.stderr?.on('data', record);
        await waitUntilServing(`${url}/webhooks/dcb`, server, () => serverOutput);
      },
      BUILD_TIMEOUT_MS + STARTUP_MS + 10_000,
    );

    afterAll(async () => {
      if (server && server.exitCode === null) {
        const exited = new Promise((resolve) => server?.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      await sandbox?.close();
    });

    it('builds without DCB_* and puts the webhook, alone, on the Edge runtime', () => {
      expect(buildOutput).toMatch(/ƒ \/webhooks\/dcb/);
      // Next.js lists the routes it compiled for the Edge runtime in the middleware manifest.
      const manifest = JSON.parse(readFileSync(`${app}/.next/server/middleware-manifest.json`, 'utf8')) as {
        functions: Record<string, unknown>;
      };
      expect(Object.keys(manifest.functions)).toEqual(['/webhooks/dcb/route']);
    });

    it('pays once: the edge route verifies and applies the webhook once, and refuses a tampered copy', async () => {
      const asAlice = { cookie: 'account=alice' };
      const checkout = await fetch(`${url}/billing/checkout`, {
        method: 'POST',
        headers: { ...asAlice, 'content-type': 'application/json' },
        body: JSON.stringify({ offerUid: 'offer_day_pass', nonce: createCheckoutNonce() }),
        redirect: 'manual',
      });
      expect(checkout.status, serverOutput).toBe(303);
      const checkoutUrl = checkout.headers.get('location') ?? '';
      expect(checkoutUrl.startsWith(`${sandbox.checkoutBaseUrl}/c/`)).toBe(true);

      const paid = await createCheckoutDriver(sandbox).pay(checkoutUrl);
      expect(paid.status).toBe('SUCCEEDED');
      const thanks = await fetch(paid.returnUrl ?? '', { headers: asAlice });
      expect(await thanks.json()).toMatchObject({ kind: 'return', state: 'succeeded' });

      const held = async () =>
        (await (await fetch(`${url}/webhooks/dcb?product=prod_day_pass`, { headers: asAlice })).json()) as {
          entitlement: { status: string; unitsBought: number } | null;
        };
      // The sandbox posts each event at once; deliverDue runs whatever is still due.
      await sandbox.deliverDue();
      const deliveries = sandbox.webhooks();
      expect(deliveries.map((delivery) => delivery.event)).toContain('payment.succeeded');
      expect(
        deliveries.flatMap((delivery) => delivery.attempts.map((attempt) => attempt.httpStatus)),
      ).toEqual(deliveries.map(() => 200));
      expect((await held()).entitlement).toMatchObject({ status: 'ACTIVE', unitsBought: 1 });

      // The service delivers at least once: the same event again, then a copy with another account.
      const purchase = deliveries.find((delivery) => delivery.event === 'payment.succeeded');
      const body = purchase?.body ?? '';
      const post = (payload: string) =>
        fetch(`${url}/webhooks/dcb`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'service-signature': signWebhook({ payload: body, secret: sandbox.credentials.webhookSecret }),
          },
          body: payload,
        });
      const again = await post(body);
      expect({ status: again.status, body: await again.json() }).toMatchObject({
        status: 200,
        body: { received: true, outcome: 'duplicate' },
      });
      const tampered = await post(body.replace('"alice"', '"mallory"'));
      expect(tampered.status).toBe(401);
      expect(await tampered.json()).toMatchObject({ error: 'signature_mismatch' });
      expect((await held()).entitlement).toMatchObject({ status: 'ACTIVE', unitsBought: 1 });
    }, 60_000);
  },
);
