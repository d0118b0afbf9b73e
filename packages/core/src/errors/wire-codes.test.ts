import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVICE_ERROR_CODES } from '../schemas/api-error-codes.js';
import { DCB_ERROR_CODES, type ErrorCodeGroup, type ErrorCodeRow, isKitErrorCode } from './error-codes.js';

// The compiler checks the typed call sites; this reads the sources for what it cannot: a code
// given to `new DcbError` (whose type parameter takes any string) or written into an answer by hand.

const sourceRoot = fileURLToPath(new URL('..', import.meta.url));
const sources = (readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => ({
    file: relative(sourceRoot, join(sourceRoot, file)),
    text: readFileSync(join(sourceRoot, file), 'utf8'),
  }));

interface Found {
  file: string;
  code: string;
  status: number | undefined;
}

function literalsOf(pattern: RegExp): Found[] {
  return sources.flatMap(({ file, text }) =>
    [...text.matchAll(pattern)].map((match) => ({
      file,
      code: match.groups?.code ?? '',
      status: match.groups?.status === undefined ? undefined : Number(match.groups.status),
    })),
  );
}

const row = (code: string): ErrorCodeRow | undefined =>
  isKitErrorCode(code) ? (DCB_ERROR_CODES as Record<string, ErrorCodeRow>)[code] : undefined;

const CODE = "'(?<code>[^']+)'";

describe('every code literal of core is a row of DCB_ERROR_CODES', () => {
  it('webhook refusals: refused(code) and refused(status, code), at the row’s status', () => {
    const found = literalsOf(new RegExp(String.raw`\brefused\(\s*(?:(?<status>\d{3})\s*,\s*)?${CODE}`, 'g'));
    expect(found.length).toBeGreaterThan(0);
    for (const { file, code, status } of found) {
      const wire = row(code);
      expect(wire?.httpStatus, `${file}: refused(…'${code}')`).toBeDefined();
      if (status !== undefined)
        expect(status, `${file}: refused(${status}, '${code}')`).toBe(wire?.httpStatus);
    }
  });

  it('route answers written by hand: { error: { code } }, with a status', () => {
    const found = literalsOf(new RegExp(String.raw`\berror:\s*\{\s*code:\s*${CODE}`, 'g'));
    expect(found.map(({ code }) => code)).toContain('access_required');
    for (const { file, code } of found) expect(row(code)?.httpStatus, `${file}: '${code}'`).toBeDefined();
  });

  it.each<[string, ErrorCodeGroup]>([
    ['routeError', 'route'],
    ['entitlementError', 'entitlement'],
    ['rawBodyError', 'body'],
    ['offerError', 'offer'],
    ['new WebhookVerificationError', 'verification'],
  ])('%s(code) takes a code of the %s group', (call, group) => {
    const found = literalsOf(new RegExp(String.raw`${call.replace(' ', String.raw`\s+`)}\(\s*${CODE}`, 'g'));
    expect(found.length).toBeGreaterThan(0);
    for (const { file, code } of found) expect(row(code)?.group, `${file}: ${call}('${code}')`).toBe(group);
  });

  it('new DcbError(code) and isDcbError(error, code) name a kit code or a spec code', () => {
    const found = [
      ...literalsOf(new RegExp(String.raw`\bnew DcbError\(\s*${CODE}`, 'g')),
      ...literalsOf(new RegExp(String.raw`\bisDcbError\(\s*[\w.]+\s*,\s*${CODE}`, 'g')),
    ];
    expect(found.length).toBeGreaterThan(0);
    for (const { file, code } of found) {
      expect(isKitErrorCode(code) || Object.hasOwn(SERVICE_ERROR_CODES, code), `${file}: '${code}'`).toBe(
        true,
      );
    }
  });
});
