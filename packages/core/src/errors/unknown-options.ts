import { DcbError } from './dcb-error.js';

/**
 * Every option a factory takes, as an object with one `true` per name: the compiler holds it to
 * the options' type (a name missing or one too many fails the build), so the check below can
 * never refuse an option the type allows.
 */
export type OptionNames<Options> = { readonly [Name in keyof Required<Options>]: true };

/** An option of an earlier release: the name that replaced it, and how to pass it now. */
export interface RenamedOption {
  readonly to: string;
  readonly hint?: string;
}

/**
 * Refuses an option the factory does not know with a DcbError `unknown_option`, thrown before
 * anything starts: a misspelt option (`histroyRetentionDays`) or one of an older release would
 * otherwise be dropped in silence, and what it stood for found missing much later (a default
 * used, or "is not a function" at the first request). The message names the nearest known
 * option, or for a renamed one its new name; `details` carries both for a program.
 *
 * @example
 * refuseUnknownOptions('createDcbKit', config, KIT_OPTIONS);
 */
export function refuseUnknownOptions<Options>(
  where: string,
  options: object,
  known: OptionNames<Options>,
  renamed: Readonly<Record<string, RenamedOption>> = {},
): void {
  for (const option of Object.keys(options)) {
    if (Object.hasOwn(known, option)) continue;
    // An option set to undefined changes nothing, but is still a name the caller believes in.
    const names = Object.keys(known);
    const replacement = renamed[option];
    if (replacement !== undefined && names.includes(replacement.to)) {
      throw new DcbError(
        'unknown_option',
        `${where}: ${option} is not an option any more: it was renamed ${replacement.to}.${replacement.hint ? ` ${replacement.hint}` : ''}`,
        { details: { option, replacement: replacement.to } },
      );
    }
    const nearest = nearestName(option, names);
    const suggestion =
      nearest === undefined
        ? ''
        : isClose(option, nearest)
          ? ` Did you mean ${nearest}?`
          : ` The nearest is ${nearest}.`;
    throw new DcbError(
      'unknown_option',
      `${where}: ${option} is not an option.${suggestion} The options are ${listOf(names)}.`,
      { details: { option, ...(nearest === undefined ? {} : { nearest }) } },
    );
  }
}

/** The known name fewest edits away (case aside), the first of a tie. */
export function nearestName(name: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of names) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Close enough to be a slip of the fingers: a third of the name's letters at most. */
function isClose(name: string, nearest: string): boolean {
  return editDistance(name.toLowerCase(), nearest.toLowerCase()) <= Math.max(2, Math.ceil(name.length / 3));
}

/**
 * Edits from one name to another: a letter inserted, removed, replaced, or two neighbours
 * swapped (the commonest typo, `histroy`, counts one).
 */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

function listOf(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
