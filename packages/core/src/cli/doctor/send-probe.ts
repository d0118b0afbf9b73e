import { BODY_EXCERPT_BYTES, type ProbeAnswer, type ProbeFailure } from './probe-answer.js';
import type { Probe } from './probe-plan.js';

// The doctor's only I/O: one POST per probe with fetch, bounded by a timeout that covers the body
// too, turned into a ProbeAnswer whatever happens (a failure is an answer of its own kind).

export interface SendProbeOptions {
  timeoutMs: number;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Default: Date.now. */
  clock?: () => number;
  /**
   * The clock's reading the probe was signed at, when it was signed just before this call: the
   * answer's offsets are then measured from the instant its timestamp was floored from. Default: now.
   */
  sentAtMs?: number;
}

/** Posts one probe and records what came back; never throws. */
export async function sendProbe(url: string, probe: Probe, options: SendProbeOptions): Promise<ProbeAnswer> {
  const { timeoutMs, fetch: send = fetch, clock = Date.now } = options;
  const sentAtMs = options.sentAtMs ?? clock();
  const base = { probe: probe.id, expect: probe.expect, timestamp: probe.timestamp, sentAtMs };
  try {
    const response = await send(url, {
      method: 'POST',
      headers: probe.headers,
      body: probe.body,
      // A redirect is a finding of its own: the service posts to the URL it was given.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await bodyExcerpt(response);
    return {
      ...base,
      latencyMs: clock() - sentAtMs,
      status: response.status,
      body,
      date: response.headers.get('date') ?? undefined,
      location: response.headers.get('location') ?? undefined,
    };
  } catch (error) {
    return { ...base, latencyMs: clock() - sentAtMs, ...failureOf(error) };
  }
}

/** The first BODY_EXCERPT_BYTES of the body: a receiver's error page may be large. */
async function bodyExcerpt(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < BODY_EXCERPT_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  if (size >= BODY_EXCERPT_BYTES) await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, BODY_EXCERPT_BYTES).toString('utf8');
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/**
 * What kind of failure an error from fetch is. Node's fetch throws `TypeError: fetch failed` and
 * puts the socket's error in `cause` (an AggregateError of one per address when several were tried).
 */
export function failureOf(error: unknown): { failure: ProbeFailure; message: string } {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return { failure: 'timeout', message: error.message };
  }
  for (const cause of causesOf(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    const message = `${code}: ${(cause as Error).message}`;
    if (DNS_CODES.has(code)) return { failure: 'dns', message };
    if (isTlsCode(code)) return { failure: 'tls', message };
    if (CONNECTION_CODES.has(code)) return { failure: 'connection', message };
  }
  const deepest = causesOf(error).at(-1);
  return { failure: 'other', message: deepest instanceof Error ? deepest.message : String(error) };
}

function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_SSL_') ||
    code.startsWith('ERR_TLS_') ||
    code.includes('CERT') ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'EPROTO'
  );
}

/** The error, its causes, and the errors of an AggregateError among them, outermost first. */
function causesOf(error: unknown): unknown[] {
  const found: unknown[] = [];
  const visit = (value: unknown, depth: number) => {
    if (value === undefined || value === null || depth > 5 || found.includes(value)) return;
    found.push(value);
    if (value instanceof AggregateError) for (const inner of value.errors) visit(inner, depth + 1);
    if (value instanceof Error) visit(value.cause, depth + 1);
  };
  visit(error, 0);
  return found;
}
