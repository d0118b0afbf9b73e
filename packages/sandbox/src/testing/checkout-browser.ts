/** A form as a browser sees it: where it posts and the fields it would send as they stand. */
export interface PageForm {
  action: string;
  fields: Record<string, string>;
  /** Names of the inputs a person can type into (not hidden, not readonly). */
  editable: string[];
}

/** A page the browser landed on, or the merchant URL it was sent to. */
export interface BrowserPage {
  status: number;
  url: string;
  headers: Headers;
  html: string;
  forms: PageForm[];
  /** Set when the checkout redirected the browser off the checkout host (to the return URL). */
  leftTo?: string;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#96;': '`',
};

function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#96);/g, (entity) => ENTITIES[entity] ?? entity);
}

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-zA-Z-]+)(?:="([^"]*)")?/g)) {
    const name = match[1];
    if (name !== undefined) found[name.toLowerCase()] = decode(match[2] ?? '');
  }
  return found;
}

/** The forms of a page, read the way a browser would submit them (checked radios only). */
export function parseForms(html: string): PageForm[] {
  const forms: PageForm[] = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const form = attributes(match[1] ?? '');
    const fields: Record<string, string> = {};
    const editable: string[] = [];
    for (const input of (match[2] ?? '').matchAll(/<input\b([^>]*)>/g)) {
      const attrs = attributes(input[1] ?? '');
      const name = attrs.name;
      if (name === undefined) continue;
      const type = attrs.type ?? 'text';
      if (type === 'radio' && !('checked' in attrs)) continue;
      fields[name] = attrs.value ?? '';
      if (type !== 'hidden' && type !== 'radio' && !('readonly' in attrs)) editable.push(name);
    }
    forms.push({ action: form.action ?? '', fields, editable });
  }
  return forms;
}

/**
 * Drives the checkout like a browser without JavaScript: GETs pages, submits their forms with what
 * a person would type, follows redirects on the checkout host and stops when sent elsewhere.
 */
export class CheckoutBrowser {
  constructor(
    private readonly origin: string,
    private readonly acceptLanguage = 'en',
  ) {}

  async open(url: string): Promise<BrowserPage> {
    return this.follow(await fetch(url, { headers: this.headers(), redirect: 'manual' }), url);
  }

  /** Submits the page's form whose action ends with `actionSuffix`, with `typed` over its current fields. */
  async submit(
    page: BrowserPage,
    actionSuffix: string,
    typed: Record<string, string> = {},
  ): Promise<BrowserPage> {
    const form = page.forms.find((candidate) => candidate.action.endsWith(actionSuffix));
    if (!form) throw new Error(`No form posting to *${actionSuffix} on ${page.url}`);
    return this.submitForm(page, form, typed);
  }

  /** Submits one of the page's forms, with `typed` over its current fields. */
  async submitForm(
    page: BrowserPage,
    form: PageForm,
    typed: Record<string, string> = {},
  ): Promise<BrowserPage> {
    const url = new URL(form.action, page.url).toString();
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form.fields, ...typed }),
      redirect: 'manual',
    });
    return this.follow(response, url);
  }

  private headers(): Record<string, string> {
    return { 'accept-language': this.acceptLanguage };
  }

  private async follow(response: Response, url: string): Promise<BrowserPage> {
    let current = response;
    let currentUrl = url;
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.get('location');
      if (current.status < 300 || current.status >= 400 || !location) break;
      const next = new URL(location, currentUrl).toString();
      if (!next.startsWith(this.origin)) {
        return {
          status: current.status,
          url: currentUrl,
          headers: current.headers,
          html: '',
          forms: [],
          leftTo: next,
        };
      }
      currentUrl = next;
      current = await fetch(next, { headers: this.headers(), redirect: 'manual' });
    }
    const html = await current.text();
    return {
      status: current.status,
      url: currentUrl,
      headers: current.headers,
      html,
      forms: parseForms(html),
    };
  }
}
