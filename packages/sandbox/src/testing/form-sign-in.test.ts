import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithForm } from './form-sign-in.js';

// An app whose sign-in page carries a hidden form token, and whose sign-in sets a session cookie
// only with that token and a known account.
let server: Server;
let appUrl: string;
const posted: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/sign-in') {
      response.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'csrf=c1; Path=/' });
      response.end(
        '<form method="post" action="/sign-in"><input type="hidden" name="token" value="t1"><input name="account"></form>',
      );
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      posted.push(`${request.headers.cookie ?? ''} | ${body}`);
      const fields = new URLSearchParams(body);
      if (fields.get('token') === 't1' && fields.get('account') === 'amira') {
        response.writeHead(303, { location: '/', 'set-cookie': 'session=s-amira; Path=/; HttpOnly' }).end();
      } else {
        response.writeHead(403).end('refused');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('signInWithForm', () => {
  it("reads the page's hidden fields, posts the account, and returns the cookies the app set", async () => {
    const signIn = signInWithForm({
      appUrl,
      page: '/sign-in',
      path: '/sign-in',
      fields: { account: '{accountKey}' },
    });
    expect(await signIn('amira')).toEqual({ cookie: 'csrf=c1; session=s-amira' });
    expect(posted.at(-1)).toBe('csrf=c1 | token=t1&account=amira');
  });

  it('throws, naming the answer, when the app refuses the sign-in', async () => {
    const signIn = signInWithForm({ appUrl, path: '/sign-in', fields: { account: '{accountKey}' } });
    await expect(signIn('amira')).rejects.toThrow(
      'Signing amira in set no session cookie: POST /sign-in answered 403 refused',
    );
  });
});
