import { describe, expect, it } from 'vitest';
import { planProbes } from './probe-plan.js';
import { failureOf, sendProbe } from './send-probe.js';

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

describe('failureOf', () => {
  it('tells DNS, TLS, connection and timeout failures apart from the errors Node’s fetch throws', () => {
    expect(failureOf(fetchFailed(withCode('ENOTFOUND', 'getaddrinfo ENOTFOUND shop.invalid')))).toEqual({
      failure: 'dns',
      message: 'ENOTFOUND: getaddrinfo ENOTFOUND shop.invalid',
    });
    expect(failureOf(fetchFailed(withCode('EAI_AGAIN'))).failure).toBe('dns');
    expect(failureOf(fetchFailed(withCode('ERR_SSL_WRONG_VERSION_NUMBER'))).failure).toBe('tls');
    expect(failureOf(fetchFailed(withCode('CERT_HAS_EXPIRED'))).failure).toBe('tls');
    expect(failureOf(fetchFailed(withCode('DEPTH_ZERO_SELF_SIGNED_CERT'))).failure).toBe('tls');
    expect(failureOf(fetchFailed(withCode('ERR_TLS_CERT_ALTNAME_INVALID'))).failure).toBe('tls');
    expect(failureOf(fetchFailed(withCode('ECONNREFUSED'))).failure).toBe('connection');
    // Several addresses tried (IPv6 and IPv4): an AggregateError of one error each.
    const refusedTwice = new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'refused');
    expect(failureOf(fetchFailed(refusedTwice)).failure).toBe('connection');
    expect(failureOf(fetchFailed(withCode('UND_ERR_SOCKET', 'other side closed'))).failure).toBe(
      'connection',
    );
    expect(
      failureOf(new DOMException('The operation was aborted due to timeout', 'TimeoutError')).failure,
    ).toBe('timeout');
    expect(failureOf(fetchFailed(new Error('bad port')))).toEqual({ failure: 'other', message: 'bad port' });
  });
});

describe('sendProbe', () => {
  const [valid] = planProbes({ secret: 'whsec_a', foreignSecret: 'whsec_b', runId: 'r1', now: new Date() });
  if (valid === undefined) throw new Error('no probe');

  it('posts the probe as planned and keeps the status, the Date and Location headers and the start of the body', async () => {
    const sent: Array<{ url: string; init: RequestInit }> = [];
    let now = 1_000;
    const answer = await sendProbe('https://shop.example/webhooks/dcb', valid, {
      timeoutMs: 1000,
      clock: () => (now += 5),
      fetch: async (url, init = {}) => {
        sent.push({ url: String(url), init });
        return new Response('x'.repeat(10_000), {
          status: 301,
          headers: {
            date: 'Tue, 01 Jan 2030 12:00:00 GMT',
            location: 'https://www.shop.example/webhooks/dcb',
          },
        });
      },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.init).toMatchObject({
      method: 'POST',
      body: valid.body,
      headers: valid.headers,
      redirect: 'manual',
    });
    expect(answer).toEqual({
      probe: 'valid',
      expect: 'accepted',
      timestamp: valid.timestamp,
      sentAtMs: 1005,
      latencyMs: 5,
      status: 301,
      body: 'x'.repeat(2048),
      date: 'Tue, 01 Jan 2030 12:00:00 GMT',
      location: 'https://www.shop.example/webhooks/dcb',
    });
  });

  it('turns a failed request into an answer of its own kind, never a throw', async () => {
    const answer = await sendProbe('https://shop.invalid/webhooks', valid, {
      timeoutMs: 1000,
      fetch: async () => {
        throw fetchFailed(withCode('ENOTFOUND'));
      },
    });
    expect(answer).toMatchObject({ probe: 'valid', failure: 'dns', message: 'ENOTFOUND: ENOTFOUND' });
  });
});
