import { createHash } from 'node:crypto';

/** The texts named at most: the store's statements are a few dozen per schema; past this, run unnamed. */
const MAX_NAMED = 2_000;
const names = new Map<string, string>();

/**
 * The prepared statement's name of a text: a digest of the text, so that one text has one name on
 * every connection, whichever executor (schema, store) sent it, and two texts never share one
 * (pg refuses a name prepared with another text). Undefined once MAX_NAMED texts are named.
 */
export function statementName(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_NAMED) return known;
  const name = `dcbkit_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
  names.set(text, name);
  return name;
}
