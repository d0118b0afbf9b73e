import { parseForms } from './checkout-browser.js';
import type { PartnerCheckFormFields, PartnerCheckHeaders } from './partner-check-options.js';

/** An answer of the app, read whole, or why there was none. */
export interface AppAnswer {
  method: 'GET' | 'POST';
  url: string;
  /** null when the app did not answer: `error` says why (refused, timed out). */
  status: number | null;
  location: string | null;
  body: string;
  error: string | null;
}

/** Where the check found a form's fields: on a page of the app, or nowhere (the page, for the evidence). */
export type FoundForm =
  | { fields: PartnerCheckFormFields; page: AppAnswer }
  | { fields: undefined; page: AppAnswer };

/** How much of an answer a piece of evidence quotes. */
const QUOTED_CHARACTERS = 160;

/**
 * One account visiting the app as a browser would: the headers its sign-in gave, the cookies the
 * app sets along the way, same-origin form posts (Origin and Sec-Fetch-Site as a browser sends
 * them), redirects not followed, and a time limit on every answer.
 */
export class AppVisitor {
  private readonly cookies = new Map<string, string>();
  private readonly headers: Record<string, string> = {};

  constructor(
    private readonly appUrl: URL,
    readonly accountKey: string,
    signedIn: PartnerCheckHeaders,
    private readonly timeoutMs: number,
  ) {
    for (const [name, value] of Object.entries(signedIn)) {
      if (name.toLowerCase() === 'cookie') {
        for (const pair of value.split(';')) this.keepCookie(pair);
      } else {
        this.headers[name.toLowerCase()] = value;
      }
    }
  }

  /** The cookies the app has set, as a Cookie header ('' when none). */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** A path of the app as a URL (under the app URL's own path, when it has one). */
  urlOf(path: string): URL {
    const base = this.appUrl.pathname.replace(/\/+$/, '');
    return new URL(`${base}${path}`, this.appUrl.origin);
  }

  get(target: string | URL): Promise<AppAnswer> {
    const url = typeof target === 'string' ? this.urlOf(target) : target;
    return this.request('GET', url, undefined);
  }

  postForm(path: string, fields: PartnerCheckFormFields): Promise<AppAnswer> {
    return this.request('POST', this.urlOf(path), new URLSearchParams({ ...fields }));
  }

  /**
   * The fields of the form on `pagePath` that posts to `action` and carries every `wanted` field
   * (a form for the embedded checkout is passed over: the check pays on the hosted pages).
   */
  async formOn(pagePath: string, action: string, wanted: PartnerCheckFormFields = {}): Promise<FoundForm> {
    const page = await this.get(pagePath);
    if (page.status === null || page.status < 200 || page.status >= 300) return { fields: undefined, page };
    const target = this.urlOf(action).pathname;
    const form = parseForms(page.body).find(
      (candidate) =>
        new URL(candidate.action || page.url, page.url).pathname === target &&
        candidate.fields.presentation !== 'embedded' &&
        Object.entries(wanted).every(([name, value]) => candidate.fields[name] === value),
    );
    return form ? { fields: form.fields, page } : { fields: undefined, page };
  }

  private async request(
    method: 'GET' | 'POST',
    url: URL,
    form: URLSearchParams | undefined,
  ): Promise<AppAnswer> {
    const headers: Record<string, string> = { accept: 'text/html, application/json', ...this.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = this.appUrl.origin;
      headers['sec-fetch-site'] = 'same-origin';
    }
    try {
      const response = await fetch(url, {
        method,
        headers,
        ...(form ? { body: form } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      for (const cookie of response.headers.getSetCookie()) this.takeSetCookie(cookie);
      return {
        method,
        url: url.href,
        status: response.status,
        location: response.headers.get('location'),
        body: await response.text(),
        error: null,
      };
    } catch (error) {
      const why =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${this.timeoutMs} ms`
          : String((error as { cause?: unknown }).cause ?? error);
      return { method, url: url.href, status: null, location: null, body: '', error: why };
    }
  }

  private keepCookie(pair: string): void {
    const separator = pair.indexOf('=');
    if (separator <= 0) return;
    this.cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
  }

  /** A Set-Cookie: kept, or dropped when it expires the cookie (how an app signs a browser out). */
  private takeSetCookie(header: string): void {
    const [pair = '', ...attributes] = header.split(';');
    const expired = attributes.some((attribute) => {
      const [name = '', value = ''] = attribute.split('=').map((part) => part.trim());
      if (name.toLowerCase() === 'max-age') return Number(value) <= 0;
      if (name.toLowerCase() === 'expires') return Date.parse(value) <= Date.now();
      return false;
    });
    const name = pair.slice(0, pair.indexOf('=')).trim();
    if (expired) this.cookies.delete(name);
    else this.keepCookie(pair);
  }
}

/** An answer in a line of evidence: 'POST /checkout answered 403 {"error":…}'. */
export function describeAnswer(answer: AppAnswer): string {
  const path = new URL(answer.url).pathname;
  if (answer.status === null) return `${answer.method} ${path} got no answer (${answer.error})`;
  const location = answer.location === null ? '' : ` to ${answer.location}`;
  const body = answer.body.replace(/\s+/g, ' ').trim().slice(0, QUOTED_CHARACTERS);
  return `${answer.method} ${path} answered ${answer.status}${location}${body === '' ? '' : ` ${body}`}`;
}
