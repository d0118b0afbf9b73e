import type request from 'supertest';

/**
 * A browser's session on the shop: supertest's `request.agent(shop.app)`, which keeps the cookies
 * the shop sets and sends them back.
 */
export type BrowserSession = ReturnType<typeof request.agent>;

/** Posts a form as a browser does; `headers` may add another site's Origin. */
export function postForm(
  session: BrowserSession,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return session.post(path).type('form').set(headers).send(fields);
}

/** The page's first hidden `token` field. */
export async function tokenOn(session: BrowserSession, path: string): Promise<string> {
  const { text } = await session.get(path);
  const token = /name="token" value="([^"]+)"/.exec(text)?.[1];
  if (token === undefined) throw new Error(`no form token on ${path}`);
  return token;
}

/** The cookies a response sets, one `Set-Cookie` line each. */
export function setCookies(response: { headers: Record<string, unknown> }): string[] {
  const lines = response.headers['set-cookie'];
  return Array.isArray(lines) ? lines.map(String) : [];
}
