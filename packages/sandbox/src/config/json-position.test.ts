import { describe, expect, it } from 'vitest';
import { jsonSyntaxErrorOffset, jsonSyntaxErrorPosition, positionAt } from './json-position.js';

describe('jsonSyntaxErrorOffset', () => {
  it('accepts what JSON.parse accepts', () => {
    for (const text of ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]} ', '"s"', '0']) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(jsonSyntaxErrorOffset(text)).toBeUndefined();
    }
  });

  it.each([
    ['{"a": [1,]}', 9],
    ['{"a" 1}', 5],
    ["{'a': 1}", 1],
    ['{"a": 01}', 7],
    ['[1] x', 4],
    ['{"a": "line\nbreak"}', 11],
    ['', 0],
    ['{"a": [', 7],
  ])('finds the error in %j at %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(jsonSyntaxErrorOffset(text)).toBe(offset);
  });

  it('turns offsets into 1-based lines and columns', () => {
    expect(positionAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(jsonSyntaxErrorPosition('{\n  "a": tru\n}')).toEqual({ line: 2, column: 8 });
  });
});
