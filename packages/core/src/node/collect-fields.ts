import type { IncomingMessage } from 'node:http';
import { isDcbError } from '../errors/dcb-error.js';
import { routeError } from '../routes/route-error.js';
import { getRawBody } from './read-raw-body.js';

/** Forms and JSON bodies of the partner routes are a few fields: anything larger is refused. */
export const MAX_FORM_BYTES = 16 * 1024;

export interface FieldSources {
  req: IncomingMessage;
  /** The query string, as the framework parsed it. */
  query?: Readonly<Record<string, unknown>>;
  /** The body, when the app's own body parser already parsed it (`req.body`, `ctx.request.body`). */
  parsedBody?: unknown;
  /** Route parameters (`/subscriptions/:subscriptionUid/cancel`). */
  params?: Readonly<Record<string, unknown>>;
}

/**
 * The fields of a partner route request: the query, then the body (the app's parsed one, or a
 * urlencoded or JSON body read here), then route params; later sources win. A repeated field keeps
 * its first value, whichever parser read it. Throws a DcbError `invalid_request` for a body it cannot read.
 */
export async function collectFields({
  req,
  query,
  parsedBody,
  params,
}: FieldSources): Promise<Record<string, unknown>> {
  const body = isRecord(parsedBody) && Object.keys(parsedBody).length > 0 ? parsedBody : await readBody(req);
  return { ...firstValues(query), ...firstValues(body), ...firstValues(params) };
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (req.method === 'GET' || req.method === 'HEAD' || req.readableEnded || req.readableDidRead) return {};
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' && type !== 'application/json') return {};
  let raw: Buffer;
  try {
    raw = await getRawBody({ req, maxBytes: MAX_FORM_BYTES });
  } catch (error) {
    if (
      isDcbError(error, 'body_too_large') ||
      isDcbError(error, 'body_incomplete') ||
      isDcbError(error, 'body_consumed')
    )
      throw routeError('invalid_request', 'The request body could not be read.', { cause: error });
    throw error;
  }
  if (type === 'application/x-www-form-urlencoded')
    return firstOfEach(new URLSearchParams(raw.toString('utf8')));
  try {
    const parsed: unknown = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
    if (isRecord(parsed)) return parsed;
  } catch {
    // Reported below, like any other body that is not an object.
  }
  throw routeError('invalid_request', 'The request body must be a JSON object.');
}

/** A repeated form field keeps its first value, as every framework's parser (through firstValues) does. */
function firstOfEach(params: URLSearchParams): Record<string, string> {
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
