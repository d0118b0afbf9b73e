/**
 * A browser's session over plain fetch: keeps the cookies the shop sets, sends them back, and posts
 * forms from the shop's own origin unless told otherwise. For tests over HTTP.
 */
export class BrowserSession {
  private readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async get(path: string): Promise<Response> {
    return this.keep(
      await fetch(new URL(path, this.baseUrl), { headers: this.headers(), redirect: 'manual' }),
    );
  }

  /** Posts a form; `headers` may replace the Origin (another site's) or remove it (`origin: ''`). */
  async post(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const sent = { origin: new URL(this.baseUrl).origin, ...headers };
    if (sent.origin === '') delete (sent as { origin?: string }).origin;
    return this.keep(
      await fetch(new URL(path, this.baseUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.headers(), ...sent },
        body: new URLSearchParams(fields).toString(),
      }),
    );
  }

  /** The page's first hidden `token` field. */
  async tokenOn(path: string): Promise<string> {
    const page = await (await this.get(path)).text();
    const token = /name="token" value="([^"]+)"/.exec(page)?.[1];
    if (token === undefined) throw new Error(`no form token on ${path}`);
    return token;
  }

  private headers(): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return cookie === '' ? {} : { cookie };
  }

  private keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}
