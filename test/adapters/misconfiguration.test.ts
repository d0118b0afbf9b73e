/**
 * Issue 10: a wrong secret, a base URL that is not the service, or a stopped service must be
 * loud and distinct from an outage: logged at error level once with the fix (pino keeps every
 * field and the stack), handed to onError, and sent to the framework's error handler instead of
 * telling the subscriber to try again.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { DcbError, type ErrorContext } from '@dcbkit/core';
import type { Sandbox } from '@dcbkit/sandbox';
import pino from 'pino';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { listen, type RunningServer } from '../support/listen.js';
import { APP_VARIANTS, accountHeader } from '../support/partner-apps.js';
import { createPartnerKit, type KitOverrides, type PartnerKit } from '../support/partner-kit.js';

interface PinoLine {
  level: number;
  msg: string;
  code?: string;
  route?: string;
  err?: { type: string; message: string; stack: string; code: string };
}

const ERROR_LEVEL = 50;

function capturingPino() {
  const lines: PinoLine[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line) as PinoLine);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server that is not the service: it answers every request with an HTML 404 page. */
async function notTheService(): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An address where nothing listens. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe.each(APP_VARIANTS)('$name: misconfiguration', (variant) => {
  async function start(client: KitOverrides['client']) {
    const sandbox: Sandbox = await startTestSandbox();
    cleanups.push(() => sandbox.close());
    const { logger, lines } = capturingPino();
    const reported: Array<{ error: Error; context: ErrorContext }> = [];
    const appErrors: unknown[] = [];
    let listener: RequestListener = (_req, res) => res.end();
    const app: RunningServer = await listen((req, res) => listener(req, res));
    cleanups.push(() => app.close());
    const kit: PartnerKit = createPartnerKit(sandbox, `${app.url}/return`, {
      client,
      logger,
      onError: (error, context) => {
        reported.push({ error, context });
      },
    });
    listener = await variant.build(kit, 'none', (error) => appErrors.push(error));
    const checkout = () =>
      request(app.url)
        .post('/checkout')
        .set(accountHeader, 'alice')
        .type('form')
        .send(
          new URLSearchParams({
            offerUid: 'offer_full_unlock',
            token: kit.routes.formToken('alice'),
          }).toString(),
        );
    return { sandbox, kit, lines, reported, appErrors, checkout };
  }

  it('a wrong client secret reaches the app’s error handler and onError every time, logged once with its stack and fix', async () => {
    const { lines, reported, appErrors, checkout } = await start({ clientSecret: 'not-the-secret' });
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await checkout();
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ appError: 'token_refused' });
    }
    expect(appErrors).toHaveLength(2);
    expect(appErrors[0]).toBeInstanceOf(DcbError);
    const errors = lines.filter((line) => line.level === ERROR_LEVEL);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'token_refused', route: 'checkout' });
    expect(errors[0]?.err?.stack).toContain('DcbError');
    expect(errors[0]?.msg).toContain('Check the client ID and secret');
    expect(JSON.stringify(lines)).not.toContain('not-the-secret');
    // The hook gets every failure (issue 25: it used to get one per code for the process's life).
    expect(reported).toHaveLength(2);
    expect(reported.map((report) => report.error)).toEqual(appErrors);
    expect(reported[0]?.context).toEqual({ source: 'route', route: 'checkout' });
  });

  it('a base URL that is not the service is wrong_base_url, never “token refused”', async () => {
    const { appErrors, lines, checkout } = await start({ baseUrl: await notTheService() });
    const response = await checkout();
    expect(response.body).toEqual({ appError: 'wrong_base_url' });
    expect(appErrors).toHaveLength(1);
    expect(lines.find((line) => line.level === ERROR_LEVEL)?.msg).toContain('without /v1');
  });

  it('a stopped service is an outage for the subscriber (502), and named at startup', async () => {
    const { kit, appErrors, lines, reported, checkout } = await start({
      baseUrl: await closedPort(),
      maxRetries: 0,
    });
    const response = await checkout();
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ error: { code: 'service_unavailable' } });
    expect(appErrors).toHaveLength(0);
    expect(lines.some((line) => line.level === 40 && line.msg.includes('unavailable'))).toBe(true);

    await expect(kit.checkConnection()).rejects.toMatchObject({ code: 'service_unreachable' });
    const startup = lines.find((line) => line.level === ERROR_LEVEL);
    expect(startup?.msg).toContain('Is the service (or the sandbox) running');
    expect(reported.map((r) => r.context.source)).toEqual(['startup']);
  });
});
