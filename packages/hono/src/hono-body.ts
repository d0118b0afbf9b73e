import type { HonoRequest } from 'hono';

// Hono reads a body once and caches it on the HonoRequest (`c.req.json()`, `c.req.text()`,
// `c.req.parseBody()`, a validator), leaving `c.req.raw` consumed. These translate that cache into
// what @dcbkit/core/web takes; they never parse a field themselves.

/**
 * The exact bytes of a body some middleware already read through Hono, from its cache: the
 * ArrayBuffer or Blob as read, or the text (which `c.req.json()` caches too). Undefined when the
 * body is unread (core reads it then) or Hono kept only a parsed form of it (core then answers
 * `body_not_raw` with the mounting hint): never re-serialised JSON, whose bytes are not the signed ones.
 */
export async function keptBodyOf(req: HonoRequest): Promise<string | Uint8Array | undefined> {
  if (!req.raw.bodyUsed) return undefined;
  const { arrayBuffer, blob, text } = req.bodyCache;
  if (arrayBuffer !== undefined) return new Uint8Array(await arrayBuffer);
  if (blob !== undefined) return new Uint8Array(await (await blob).arrayBuffer());
  return text === undefined ? undefined : await text;
}

/**
 * The request a partner route reads its fields from: `c.req.raw` while its body is unread; the same
 * request re-made around the cached bytes once Hono read it; or, when Hono cached only a parsed body
 * (`c.req.formData()`; `c.req.json()` on Hono releases that cached the parsed object), that body as
 * `parsedBody`, a repeated form field keeping its first value as core's own parsers do.
 */
export async function routeBodyOf(req: HonoRequest): Promise<{ request: Request; parsedBody?: unknown }> {
  const kept = await keptBodyOf(req);
  if (kept !== undefined) {
    // From its parts: `new Request(req.raw, …)` throws on the lighter Request of @hono/node-server.
    const { url, method, headers } = req.raw;
    return { request: new Request(url, { method, headers, body: kept }) };
  }
  if (!req.raw.bodyUsed) return { request: req.raw };
  const { formData, json } = req.bodyCache;
  if (formData !== undefined) return { request: req.raw, parsedBody: firstOfEach(await formData) };
  return { request: req.raw, parsedBody: json === undefined ? undefined : await json };
}

function firstOfEach(form: FormData): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  form.forEach((value, name) => {
    if (!Object.hasOwn(fields, name)) fields[name] = value;
  });
  return fields;
}
