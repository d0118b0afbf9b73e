/**
 * Issue 39: `dcbkit-sandbox check --config` against the Express starter, as a partner runs it: the
 * command starts its emulator first and prints what to start the app with; the shop (the real
 * one, on the real service's path: DCB_* variables, its wall clock) starts against it; the check
 * buys through the shop's pages as the config file declares them and passes.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { freePort } from '../../examples/test-support/free-port.js';
import { SHOPS } from '../support/shops.js';

const SANDBOX_BIN = fileURLToPath(new URL('../../packages/sandbox/bin/dcbkit-sandbox.js', import.meta.url));
const SHOP_CONFIG = fileURLToPath(new URL('../../starters/shop/partner-check.json', import.meta.url));
const SECRET = 'whsec_shop_under_the_check_0123';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Resolves with the output so far once it contains `text`. */
function outputUntil(
  child: ChildProcessWithoutNullStreams,
  text: string,
  output: { text: string },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const seen = () => {
      if (output.text.includes(text)) resolve();
    };
    child.stdout.on('data', seen);
    child.once('exit', (code) =>
      reject(new Error(`the check exited ${code} before "${text}": ${output.text}`)),
    );
  });
}

it('passes the Express starter, started against the emulator the command prints', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'check-shop-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const [shopPort, emulatorPort] = [await freePort(), await freePort()];
  // The starter's own partner-check.json, on a free port instead of 3000.
  const config = JSON.parse(readFileSync(SHOP_CONFIG, 'utf8')) as { appUrl: string };
  config.appUrl = `http://127.0.0.1:${shopPort}`;
  const configPath = join(folder, 'partner-check.json');
  writeFileSync(configPath, JSON.stringify(config));
  const junitPath = join(folder, 'junit.xml');

  const check = spawn(process.execPath, [
    SANDBOX_BIN,
    'check',
    '--config',
    configPath,
    '--webhook-secret',
    SECRET,
    '--port',
    String(emulatorPort),
    '--junit',
    junitPath,
  ]);
  cleanups.push(() => {
    if (check.exitCode === null) check.kill();
  });
  const output = { text: '' };
  check.stdout.on('data', (chunk: Buffer) => {
    output.text += chunk.toString();
  });
  check.stderr.on('data', (chunk: Buffer) => {
    output.text += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => check.once('exit', resolve));
  await outputUntil(check, 'Waiting for', output);

  const emulator = `http://127.0.0.1:${emulatorPort}`;
  expect(output.text).toContain(`DCB_API_BASE_URL=${emulator}`);
  const { startShop } = SHOPS[0] as (typeof SHOPS)[number];
  const shop = await startShop({
    port: shopPort,
    logLevel: 'silent',
    env: {
      // A fresh store: the check's accounts must have bought nothing.
      DATA_DIR: join(folder, 'data'),
      SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
      DCB_ENV: 'sandbox',
      DCB_API_BASE_URL: emulator,
      DCB_CHECKOUT_BASE_URL: emulator,
      DCB_CLIENT_ID: 'svc_test_demo',
      DCB_CLIENT_SECRET: 'sandbox-demo-client-secret',
      DCB_WEBHOOK_SECRET: SECRET,
      DCB_RETURN_URL: `${config.appUrl}/return`,
    },
  });
  cleanups.push(() => shop.close());

  expect(await exited, output.text).toBe(0);
  expect(output.text).toContain('Passed.');
  const junit = readFileSync(junitPath, 'utf8');
  expect(junit).toContain('tests="6" failures="0"');
  expect(junit).not.toContain('<failure');
}, 90_000);
