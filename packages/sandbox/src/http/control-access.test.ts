import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../start/start-sandbox.js';

const TOKEN = 'a-control-token-of-some-length';
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('the control token', () => {
  it('refuses to listen beyond loopback without one', async () => {
    await expect(startSandbox({ host: '0.0.0.0' })).rejects.toMatchObject({
      message: expect.stringContaining('control token'),
    });
  });

  it('guards the control endpoints, and only them, once set', async () => {
    sandbox = await startSandbox({ controlToken: TOKEN });
    const base = sandbox.apiBaseUrl;
    const refused = await fetch(`${base}/sandbox/config`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'SBX-401' } });
    expect(await (await fetch(`${base}/sandbox/sms`)).status).toBe(401);
    expect(
      (
        await fetch(`${base}/sandbox/config`, {
          headers: { authorization: 'Bearer wrong-token-wrong-token' },
        })
      ).status,
    ).toBe(401);

    const allowed = await fetch(`${base}/sandbox/config`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.status).toBe(200);
    // The API itself is the service's: its own credentials, no control token.
    expect((await fetch(`${base}/favicon.ico`)).status).toBe(200);
    expect((await fetch(`${base}/v1/payments/pay_x`)).status).toBe(401);
  });

  it('lets a browser in once with ?control_token=, by an HttpOnly cookie', async () => {
    sandbox = await startSandbox({ controlToken: TOKEN });
    const base = sandbox.apiBaseUrl;
    const entry = await fetch(`${base}/sandbox/inbox?control_token=${TOKEN}`, { redirect: 'manual' });
    expect(entry.status).toBe(303);
    expect(entry.headers.get('location')).toBe('/sandbox/inbox');
    const cookie = entry.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    const inbox = await fetch(`${base}/sandbox/inbox`, { headers: { cookie: cookie.split(';')[0] ?? '' } });
    expect(inbox.status).toBe(200);
  });
});
