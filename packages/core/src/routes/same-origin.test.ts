import { describe, expect, it } from 'vitest';
import { assertSameOrigin, type RequestOrigin } from './same-origin.js';

const allowed = new Set(['https://shop.example']);
const verdict = (request: RequestOrigin | undefined) => {
  try {
    assertSameOrigin(request, allowed);
    return 'allowed';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('assertSameOrigin', () => {
  it.each<[string, RequestOrigin | undefined, string]>([
    [
      'a same-origin browser post',
      { secFetchSite: 'same-origin', origin: 'https://shop.example' },
      'allowed',
    ],
    [
      'a same-origin post under no-referrer (Origin: null)',
      { secFetchSite: 'same-origin', origin: 'null' },
      'allowed',
    ],
    [
      'a cross-site form post',
      { secFetchSite: 'cross-site', origin: 'https://evil.example' },
      'cross_site_request',
    ],
    [
      'a same-site (sibling subdomain) post',
      { secFetchSite: 'same-site', origin: 'https://blog.shop.example' },
      'cross_site_request',
    ],
    ['an allowed other origin', { secFetchSite: 'cross-site', origin: 'https://shop.example' }, 'allowed'],
    ['an older browser: Origin only, another site', { origin: 'https://evil.example' }, 'cross_site_request'],
    ['an older browser: Origin null', { origin: 'null' }, 'cross_site_request'],
    ['an older browser: our Origin', { origin: 'https://shop.example' }, 'allowed'],
    ['no browser headers at all (a server, a test)', {}, 'allowed'],
    ['nothing known of the request', undefined, 'allowed'],
  ])('%s: %s', (_label, request, expected) => {
    expect(verdict(request)).toBe(expected);
  });
});
