import { WebhookVerificationError } from './webhook-verification-error.js';

/** The header the service signs webhooks with. Node lowercases incoming header names. */
export const SIGNATURE_HEADER = 'service-signature';

/** More v1 entries than this is not a rotation but an attempt to make us hash and compare a lot. */
export const MAX_V1_ENTRIES = 16;

export interface ParsedSignatureHeader {
  /** Unix seconds, as signed. */
  timestamp: number;
  /** The raw text of `t`, hashed exactly as received. */
  timestampText: string;
  /** Every `v1` entry, in order; entries of other schemes are ignored. */
  v1: string[];
}

/**
 * Where the entries of a header sit in its text. verifyWebhook works from offsets so that the
 * hot path allocates nothing per entry; the scan is synchronous, so one reusable instance is safe.
 */
export interface HeaderScan {
  text: string;
  timestamp: number;
  timestampText: string;
  v1Count: number;
  v1Start: Int32Array;
  v1End: Int32Array;
}

const sharedScan: HeaderScan = {
  text: '',
  timestamp: 0,
  timestampText: '',
  v1Count: 0,
  v1Start: new Int32Array(MAX_V1_ENTRIES),
  v1End: new Int32Array(MAX_V1_ENTRIES),
};

/**
 * Scans `t=<unix_seconds>,v1=<hex>[,v1=<hex>...]`; spaces around entries are tolerated and
 * entries of other schemes ignored. Throws WebhookVerificationError. The returned object is
 * reused by the next call: read it before calling again.
 */
export function scanSignatureHeader(header: string | readonly string[] | undefined | null): HeaderScan {
  const text = typeof header === 'string' ? header : Array.isArray(header) ? header.join(',') : '';
  const scan = sharedScan;
  scan.text = text;
  scan.v1Count = 0;
  let tStart = -1;
  let tEnd = -1;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf(',', start);
    if (end === -1) end = text.length;
    const eq = text.indexOf('=', start);
    const schemeStart = skipSpaces(text, start, eq);
    if (eq === -1 || eq >= end || schemeStart === eq) {
      if (text.trim() === '')
        throw new WebhookVerificationError('header_missing', 'Missing Service-Signature header.');
      throw malformed('every entry must be scheme=value');
    }
    const schemeLength = trimEnd(text, schemeStart, eq) - schemeStart;
    const valueStart = skipSpaces(text, eq + 1, end);
    const valueEnd = trimEnd(text, valueStart, end);
    if (schemeLength === 1 && text.charCodeAt(schemeStart) === 116 /* t */) {
      if (tStart !== -1) throw malformed('more than one t entry');
      tStart = valueStart;
      tEnd = valueEnd;
    } else if (schemeLength === 2 && text.startsWith('v1', schemeStart)) {
      if (scan.v1Count === MAX_V1_ENTRIES) throw malformed(`more than ${MAX_V1_ENTRIES} v1 entries`);
      scan.v1Start[scan.v1Count] = valueStart;
      scan.v1End[scan.v1Count] = valueEnd;
      scan.v1Count++;
    }
    start = end + 1;
  }
  if (tStart === -1) throw malformed('no t entry');
  if (scan.v1Count === 0) throw malformed('no v1 entry');
  scan.timestamp = parseUnixSeconds(text, tStart, tEnd);
  scan.timestampText = text.slice(tStart, tEnd);
  return scan;
}

/** Parses a Service-Signature header into its parts. Throws WebhookVerificationError. */
export function parseSignatureHeader(
  header: string | readonly string[] | undefined | null,
): ParsedSignatureHeader {
  const scan = scanSignatureHeader(header);
  const v1: string[] = [];
  for (let i = 0; i < scan.v1Count; i++) v1.push(scan.text.slice(scan.v1Start[i], scan.v1End[i]));
  return { timestamp: scan.timestamp, timestampText: scan.timestampText, v1 };
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9;
}

function skipSpaces(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && isSpace(text.charCodeAt(i))) i++;
  return i;
}

function trimEnd(text: string, from: number, to: number): number {
  let i = to;
  while (i > from && isSpace(text.charCodeAt(i - 1))) i--;
  return i;
}

function parseUnixSeconds(text: string, from: number, to: number): number {
  let valid = to > from && to - from <= 15;
  let value = 0;
  for (let i = from; valid && i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    valid = digit >= 0 && digit <= 9;
    value = value * 10 + digit;
  }
  if (!valid) {
    throw new WebhookVerificationError(
      'timestamp_invalid',
      'Service-Signature t must be a whole number of unix seconds.',
    );
  }
  return value;
}

function malformed(detail: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'header_malformed',
    `Malformed Service-Signature header (${detail}); expected t=<unix_seconds>,v1=<hex>.`,
  );
}

export function formatSignatureHeader(timestamp: number, signatures: readonly string[]): string {
  return [`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(',');
}
