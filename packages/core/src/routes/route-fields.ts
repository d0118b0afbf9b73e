import { routeError } from './route-error.js';

// Which fields a partner route acts on, and how a body gives them: one rule for every adapter,
// whether it reads an IncomingMessage (node/) or a fetch Request (web/).

/** Forms and JSON bodies of the partner routes are a few fields: anything larger is refused. */
export const MAX_FORM_BYTES = 16 * 1024;

/** The bodies whose fields a route reads: a urlencoded form, or a JSON object. Any other gives none. */
export type FieldBodyType = 'form' | 'json';

/** The media type of a Content-Type header, lowercased, without its parameters. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The kind of body a route reads fields from, by its Content-Type; undefined for any other. */
export function fieldBodyTypeOf(contentType: string | undefined): FieldBodyType | undefined {
  const type = mediaTypeOf(contentType);
  if (type === 'application/x-www-form-urlencoded') return 'form';
  return type === 'application/json' ? 'json' : undefined;
}

/** The fields of a body read as text. Throws a DcbError `invalid_request` for JSON that is not an object. */
export function parseFieldBody(type: FieldBodyType, text: string): Record<string, unknown> {
  if (type === 'form') return firstOfEach(new URLSearchParams(text));
  try {
    const parsed: unknown = text.length === 0 ? {} : JSON.parse(text);
    if (isRecord(parsed)) return parsed;
  } catch {
    // Reported below, like any other body that is not an object.
  }
  throw routeError('invalid_request', 'The request body must be a JSON object.');
}

/**
 * The fields of a partner route request: the query (GET and HEAD only: the state-changing routes
 * never take a field from the query, so that a link cannot cancel), then the body, then route
 * params; later sources win. A repeated field keeps its first value, whichever parser read it.
 */
export function routeFields(sources: {
  /** Pass it only for a GET or HEAD. */
  query: unknown;
  body: unknown;
  params: unknown;
}): Record<string, unknown> {
  return { ...firstValues(sources.query), ...firstValues(sources.body), ...firstValues(sources.params) };
}

/** A repeated form field keeps its first value, as every framework's parser (through firstValues) does. */
export function firstOfEach(params: URLSearchParams): Record<string, string> {
  const firsts = new Map<string, string>();
  for (const [name, value] of params) if (!firsts.has(name)) firsts.set(name, value);
  return Object.fromEntries(firsts);
}

function firstValues(source: unknown): Record<string, unknown> {
  if (!isRecord(source)) return {};
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(source)) out[name] = Array.isArray(value) ? value[0] : value;
  return out;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
