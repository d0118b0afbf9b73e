import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppVisitor, describeAnswer } from './app-visitor.js';

/** A tiny app: records what it was sent, answers per path. */
let server: Server;
let base: URL;
const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    });
    switch (req.url) {
      case '/shop/sign-in':
        res.setHeader('set-cookie', ['session=abc; Path=/; HttpOnly', 'lang=fr; Path=/']);
        return res.writeHead(303, { location: '/shop/' }).end();
      case '/shop/sign-out':
        res.setHeader('set-cookie', 'session=; Max-Age=0; Path=/');
        return res.writeHead(303, { location: '/shop/' }).end();
      case '/shop/offers':
        return res.writeHead(200, { 'content-type': 'text/html' }).end(`
          <form method="post" action="/elsewhere"><input type="hidden" name="offerUid" value="offer_a"></form>
          <form method="post" action="/shop/checkout"><input type="hidden" name="offerUid" value="offer_a">
            <input type="hidden" name="presentation" value="embedded"><input type="hidden" name="token" value="embedded-token"></form>
          <form method="post" action="checkout"><input type="hidden" name="offerUid" value="offer_a">
            <input type="hidden" name="token" value="t&amp;1"></form>
          <form method="post" action="/shop/checkout"><input type="hidden" name="offerUid" value="offer_b">
            <input type="hidden" name="token" value="t2"></form>`);
      case '/shop/slow':
        return; // never answers
      default:
        return res.writeHead(404).end('no such page here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/shop`);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('AppVisitor', () => {
  it('sends the sign-in headers, keeps the cookies the app sets and drops the ones it expires', async () => {
    const visitor = new AppVisitor(base, 'alice', { 'X-Account': 'alice', Cookie: 'consent=yes' }, 1000);
    expect((await visitor.get('/sign-in')).location).toBe('/shop/');
    await visitor.get('/anything');
    expect(seen.at(-1)?.headers).toMatchObject({
      'x-account': 'alice',
      cookie: 'consent=yes; session=abc; lang=fr',
    });
    await visitor.get('/sign-out');
    await visitor.get('/anything');
    expect(seen.at(-1)?.headers.cookie).toBe('consent=yes; lang=fr');
  });

  it('posts forms as a same-origin browser does, under the app URL’s path', async () => {
    const visitor = new AppVisitor(base, 'alice', {}, 1000);
    const answer = await visitor.postForm('/checkout', { offerUid: 'offer_a', token: 't&1' });
    expect(answer).toMatchObject({ method: 'POST', status: 404, body: 'no such page here' });
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/shop/checkout',
      body: 'offerUid=offer_a&token=t%261',
      headers: {
        origin: base.origin,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/x-www-form-urlencoded',
      },
    });
    expect(describeAnswer(answer)).toBe('POST /shop/checkout answered 404 no such page here');
  });

  it('finds the form that posts to an action with the wanted fields, passing over the embedded checkout', async () => {
    const visitor = new AppVisitor(base, 'alice', {}, 1000);
    expect((await visitor.formOn('/offers', '/checkout', { offerUid: 'offer_a' })).fields).toEqual({
      offerUid: 'offer_a',
      token: 't&1',
    });
    expect((await visitor.formOn('/offers', '/checkout', { offerUid: 'offer_b' })).fields).toEqual({
      offerUid: 'offer_b',
      token: 't2',
    });
    expect((await visitor.formOn('/offers', '/checkout', { offerUid: 'offer_c' })).fields).toBeUndefined();
    const missing = await visitor.formOn('/nowhere', '/checkout');
    expect(missing.fields).toBeUndefined();
    expect(missing.page.status).toBe(404);
  });

  it('gives up on an answer after the time limit, and says so', async () => {
    const visitor = new AppVisitor(base, 'alice', {}, 100);
    const answer = await visitor.get('/slow');
    expect(answer).toMatchObject({ status: null, error: 'no answer within 100 ms' });
    expect(describeAnswer(answer)).toBe('GET /shop/slow got no answer (no answer within 100 ms)');
  });
});
