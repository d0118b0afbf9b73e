/** A place in a text file, both counted from 1, as editors show it. */
export interface TextPosition {
  line: number;
  column: number;
}

/** The line and column of a character offset in `text`. */
export function positionAt(text: string, offset: number): TextPosition {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

class JsonSyntaxAt extends Error {
  constructor(readonly offset: number) {
    super(`JSON syntax error at ${offset}`);
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/**
 * The offset of the first JSON syntax error in `text`, or undefined when it is valid JSON. Node's
 * JSON.parse message gives no position for the commonest mistakes (Node 20: "Unexpected token ']',
 * ... is not valid JSON" for a trailing comma in an array or a missing value, "Unexpected end of
 * JSON input" for a truncated file), and jsonc-parser points at a string's opening quote rather
 * than at the bad character inside it, so this walks the text itself: a recursive descent over
 * RFC 8259, bounded by the text, run only once JSON.parse has failed.
 */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
  let at = 0;
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at++;
  };
  const expect = (literal: string) => {
    if (!text.startsWith(literal, at)) throw new JsonSyntaxAt(at);
    at += literal.length;
  };
  const string = () => {
    expect('"');
    for (;;) {
      const code = text.charCodeAt(at);
      // A raw control character (below U+0020) or the end of the text ends the string in error.
      if (Number.isNaN(code) || code < 0x20) throw new JsonSyntaxAt(at);
      if (code === 0x22) break;
      if (code === 0x5c) {
        ESCAPE.lastIndex = at;
        if (!ESCAPE.test(text)) throw new JsonSyntaxAt(at);
        at = ESCAPE.lastIndex;
      } else {
        at++;
      }
    }
    expect('"');
  };
  const value = (depth: number): void => {
    if (depth > 512) throw new JsonSyntaxAt(at);
    space();
    const char = text[at];
    if (char === '{') {
      at++;
      space();
      if (text[at] === '}') {
        at++;
        return;
      }
      for (;;) {
        space();
        string();
        space();
        expect(':');
        value(depth + 1);
        space();
        if (text[at] !== ',') {
          expect('}');
          return;
        }
        at++;
      }
    }
    if (char === '[') {
      at++;
      space();
      if (text[at] === ']') {
        at++;
        return;
      }
      for (;;) {
        value(depth + 1);
        space();
        if (text[at] !== ',') {
          expect(']');
          return;
        }
        at++;
      }
    }
    if (char === '"') {
      string();
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, at)) {
        at += literal.length;
        return;
      }
    }
    NUMBER.lastIndex = at;
    if (!NUMBER.test(text)) throw new JsonSyntaxAt(at);
    at = NUMBER.lastIndex;
  };
  try {
    value(0);
    space();
    if (at < text.length) throw new JsonSyntaxAt(at);
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxAt) return error.offset;
    throw error;
  }
}

/** Where JSON.parse failed on `text`, as line and column. */
export function jsonSyntaxErrorPosition(text: string): TextPosition | undefined {
  const offset = jsonSyntaxErrorOffset(text);
  return offset === undefined ? undefined : positionAt(text, offset);
}
