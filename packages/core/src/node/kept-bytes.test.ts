import { describe, expect, it } from 'vitest';
import { keptBytesOf } from './kept-bytes.js';

describe('keptBytesOf', () => {
  it('takes the rawBody a parser kept first', () => {
    const rawBody = Buffer.from('{"a":1}');
    expect(keptBytesOf({ rawBody, body: { a: 1 } })).toBe(rawBody);
  });

  it('takes a body left as bytes or text', () => {
    const bytes = Buffer.from('{}');
    expect(keptBytesOf({ body: bytes })).toBe(bytes);
    expect(keptBytesOf({ body: '{}' })).toBe('{}');
  });

  it('has nothing when the parser kept only the parsed object, or none ran', () => {
    expect(keptBytesOf({ body: { a: 1 } })).toBeUndefined();
    expect(keptBytesOf({})).toBeUndefined();
  });
});
