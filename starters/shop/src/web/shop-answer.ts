/**
 * What a page of the shop answers, said without a web framework: the framework's part of the app
 * (src/framework/) writes it with its own response object. Each kind carries the headers the shop
 * means, so no caching rule lives in a framework's code.
 */
export type ShopAnswer =
  | { kind: 'page'; status: number; html: string; headers: Readonly<Record<string, string>> }
  | { kind: 'redirect'; status: 301 | 303; location: string }
  | { kind: 'text'; status: number; text: string }
  | { kind: 'json'; status: number; body: object; headers: Readonly<Record<string, string>> }
  | { kind: 'file'; type: string; body: Buffer; headers: Readonly<Record<string, string>> };

/** Pages carry form tokens and account details: never cached, by the browser or a proxy. */
const NOT_STORED = { 'cache-control': 'no-store' } as const;

/** An HTML page. */
export function pageAnswer(html: string, status = 200): ShopAnswer {
  return { kind: 'page', status, html, headers: NOT_STORED };
}

/**
 * 303 See Other: after a form post the browser follows with a GET, so reloading the next page
 * posts nothing again.
 */
export function seeOther(location: string): ShopAnswer {
  return { kind: 'redirect', status: 303, location };
}

/** 301: an address that moved for good. */
export function movedPermanently(location: string): ShopAnswer {
  return { kind: 'redirect', status: 301, location };
}

/** A short plain-text answer, for refusals a browser shows as they are. */
export function textAnswer(status: number, text: string): ShopAnswer {
  return { kind: 'text', status, text };
}

/** JSON for a machine (the load balancer's probes): never cached, so a probe always asks. */
export function jsonAnswer(status: number, body: object): ShopAnswer {
  return { kind: 'json', status, body, headers: NOT_STORED };
}

/** One of the shop's public files, cached by browsers for an hour. */
export function fileAnswer(type: string, body: Buffer): ShopAnswer {
  return { kind: 'file', type, body, headers: { 'cache-control': 'public, max-age=3600' } };
}

/**
 * A download (a CSV of the business numbers): never cached, as the pages, and saved under `name`
 * rather than shown. `name` is the shop's own, never a visitor's text.
 */
export function downloadAnswer(type: string, name: string, body: Buffer): ShopAnswer {
  return {
    kind: 'file',
    type,
    body,
    headers: { ...NOT_STORED, 'content-disposition': `attachment; filename="${name}"` },
  };
}

/** A file whose address changes with its content (a library's version in its name): cached for a year. */
export function immutableFileAnswer(type: string, body: Buffer): ShopAnswer {
  return { kind: 'file', type, body, headers: { 'cache-control': 'public, max-age=31536000, immutable' } };
}
