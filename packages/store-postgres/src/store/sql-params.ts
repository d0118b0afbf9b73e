/**
 * A statement's parameters, numbered as they are added: `add` keeps a value and answers the
 * placeholder that stands for it. SQL assembled from several parts (deferred-writes.ts) is written
 * with the placeholders each part was given, so no text is ever renumbered: a `$1` inside a
 * string literal or a comment stays what it is.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** Each value added in order; their placeholders, in the same order. */
  addAll(values: readonly unknown[]): string[] {
    return values.map((value) => this.add(value));
  }
}

/** `$1` to `$count`: the placeholders of a statement sent alone, its parameters in order. */
export function numbered(count: number): string[] {
  return Array.from({ length: count }, (_, n) => `$${n + 1}`);
}
