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
  const walk = new JsonWalk(text);
  try {
    walk.document();
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxAt) return error.offset;
    throw error;
  }
}

/** The descent: each method reads one part of the grammar at `at`, or throws JsonSyntaxAt. */
class JsonWalk {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.value(0);
    this.space();
    if (this.at < this.text.length) throw new JsonSyntaxAt(this.at);
  }

  private value(depth: number): void {
    if (depth > 512) throw new JsonSyntaxAt(this.at);
    this.space();
    const char = this.text[this.at];
    if (char === '{') this.object(depth);
    else if (char === '[') this.array(depth);
    else if (char === '"') this.string();
    else this.scalar();
  }

  private object(depth: number): void {
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return;
    }
    for (;;) {
      this.space();
      this.string();
      this.space();
      this.expect(':');
      this.value(depth + 1);
      if (this.closes('}')) return;
    }
  }

  private array(depth: number): void {
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return;
    }
    for (;;) {
      this.value(depth + 1);
      if (this.closes(']')) return;
    }
  }

  /** After a member: true at the closing bracket (consumed), false at a comma (consumed). */
  private closes(bracket: '}' | ']'): boolean {
    this.space();
    if (this.text[this.at] !== ',') {
      this.expect(bracket);
      return true;
    }
    this.at++;
    return false;
  }

  private string(): void {
    const { text } = this;
    this.expect('"');
    for (;;) {
      const code = text.charCodeAt(this.at);
      // A raw control character (below U+0020) or the end of the text ends the string in error.
      if (Number.isNaN(code) || code < 0x20) throw new JsonSyntaxAt(this.at);
      if (code === 0x22) break;
      if (code === 0x5c) {
        ESCAPE.lastIndex = this.at;
        if (!ESCAPE.test(text)) throw new JsonSyntaxAt(this.at);
        this.at = ESCAPE.lastIndex;
      } else {
        this.at++;
      }
    }
    this.expect('"');
  }

  private scalar(): void {
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.at)) {
        this.at += literal.length;
        return;
      }
    }
    NUMBER.lastIndex = this.at;
    if (!NUMBER.test(this.text)) throw new JsonSyntaxAt(this.at);
    this.at = NUMBER.lastIndex;
  }

  private space(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at] as string)) this.at++;
  }

  private expect(literal: string): void {
    if (!this.text.startsWith(literal, this.at)) throw new JsonSyntaxAt(this.at);
    this.at += literal.length;
  }
}

/** Where JSON.parse failed on `text`, as line and column. */
export function jsonSyntaxErrorPosition(text: string): TextPosition | undefined {
  const offset = jsonSyntaxErrorOffset(text);
  return offset === undefined ? undefined : positionAt(text, offset);
}
