import { parseForms } from '@dcbkit/sandbox/testing';

/** A subscriber's browser over fetch: its own cookie jar, redirects followed by hand, forms from the shop's origin. */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(readonly shopUrl: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(new URL(path, this.shopUrl), {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    }).catch((error: unknown) => {
      throw new Error(
        `${init.method ?? 'GET'} ${path.split('?')[0]}: ${(error as Error).name} ${(error as Error).message}`,
      );
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const equals = pair.indexOf('=');
      const value = pair.slice(equals + 1);
      // An expired cookie (sign-out) clears it; the shop's session is otherwise replaced whole.
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '')
        this.cookies.delete(pair.slice(0, equals));
      else this.cookies.set(pair.slice(0, equals), value);
    }
    return response;
  }

  /** GET and read the page; the status too, for the caller to judge. */
  async page(path: string): Promise<{ status: number; html: string; location: string | null }> {
    const response = await this.request(path);
    return {
      status: response.status,
      html: await response.text(),
      location: response.headers.get('location'),
    };
  }

  async post(
    path: string,
    fields: Record<string, string>,
  ): Promise<{ status: number; location: string | null; text: string }> {
    const response = await this.request(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(this.shopUrl).origin,
      },
      body: new URLSearchParams(fields).toString(),
    });
    return {
      status: response.status,
      location: response.headers.get('location'),
      text: await response.text(),
    };
  }
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

function decodeEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** The fields of the first form posting to `action` inside `html` (as a browser sends them), or undefined when there is none. */
export function formFields(html: string, action: string): Record<string, string> | undefined {
  return parseForms(html).find((form) => form.action === action)?.fields;
}

/** The card of one offer on the offers page. */
export function offerCard(html: string, offerUid: string): string {
  const start = html.indexOf(`<li class="card" id="${offerUid}">`);
  if (start < 0) return '';
  const end = html.indexOf('</li>', start);
  return html.slice(start, end < 0 ? undefined : end);
}

/** Any form token on the page (the kit's token is per sign-in, the same in every form of a page). */
export function anyToken(html: string): string | undefined {
  return /name="token" value="([^"]+)"/.exec(html)?.[1];
}

/** What the account page says, as a subscriber reads it. */
export interface AccountView {
  /** Access per product name, from the page's access list. */
  access: Record<string, boolean>;
  /** Passes left and bought, when the day pass was ever bought. */
  passes: { available: number; bought: number } | undefined;
  /** Subscription uids with the actions offered. */
  subscriptions: { uid: string; resume: boolean; cancelAtPeriodEnd: boolean; cancelNow: boolean }[];
  /** Pending payments this account may cancel. */
  pendingPayments: string[];
}

export function readAccountPage(html: string): AccountView {
  const access: Record<string, boolean> = {};
  for (const match of html.matchAll(/<li><span>([^<]+)<\/span> <strong class="(yes|no)">/g)) {
    access[decodeEntities(match[1] ?? '')] = match[2] === 'yes';
  }
  const balance = /<dd class="balance">(\d+) of (\d+)<\/dd>/.exec(html);
  const uids = new Set<string>();
  for (const match of html.matchAll(/\/account\/subscriptions\/([^/"]+)\/(?:resume|cancel)/g))
    uids.add(match[1] ?? '');
  const subscriptions = [...uids].map((uid) => ({
    uid,
    resume: html.includes(`/account/subscriptions/${uid}/resume"`),
    cancelAtPeriodEnd: html.includes(`/account/subscriptions/${uid}/cancel?when=PERIOD_END"`),
    cancelNow: html.includes(`/account/subscriptions/${uid}/cancel?when=NOW"`),
  }));
  const pendingPayments = [...html.matchAll(/action="\/account\/payments\/([^/"]+)\/cancel"/g)].map(
    (match) => match[1] ?? '',
  );
  return {
    access,
    passes: balance ? { available: Number(balance[1]), bought: Number(balance[2]) } : undefined,
    subscriptions,
    pendingPayments,
  };
}
