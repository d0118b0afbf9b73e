import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as root from './index.js';
import * as node from './node/index.js';
import * as schemas from './schemas/index.js';
import * as store from './store/index.js';
import * as web from './web/index.js';
import * as webhooks from './webhooks/index.js';

// Each name of @dcbkit/core has one entry point, the one of its reader (ARCHITECTURE.md, "Entry
// points by audience"), and the root stays what an app uses. The values are read from the
// sources; the types from the committed API reports (`pnpm check:api` keeps them equal to the build).

const ENTRIES = {
  '@dcbkit/core': { module: root, report: 'index' },
  '@dcbkit/core/node': { module: node, report: 'node' },
  '@dcbkit/core/schemas': { module: schemas, report: 'schemas' },
  '@dcbkit/core/store': { module: store, report: 'store' },
  '@dcbkit/core/web': { module: web, report: 'web' },
  '@dcbkit/core/webhooks': { module: webhooks, report: 'webhooks' },
} as const;
type Entry = keyof typeof ENTRIES;

/** The names exported by more than one entry on purpose, and by which (each entry's header says why). */
const SHARED: Record<string, readonly Entry[]> = {
  // The error family: what each entry's callers catch.
  DcbError: ['@dcbkit/core', '@dcbkit/core/web', '@dcbkit/core/webhooks'],
  isDcbError: ['@dcbkit/core', '@dcbkit/core/web', '@dcbkit/core/webhooks'],
  WebhookVerificationError: ['@dcbkit/core', '@dcbkit/core/webhooks'],
  // The root imports node builtins: an edge runtime reaches the memory store and ledger through '/web'.
  memoryLedger: ['@dcbkit/core', '@dcbkit/core/web'],
  memoryStore: ['@dcbkit/core', '@dcbkit/core/web'],
};

/** The root's budget: an app's front door, not the whole kit. */
const ROOT_NAMES_AT_MOST = 60;

function reportNames(entry: Entry): string[] {
  const file = new URL(`../api/${ENTRIES[entry].report}.api.md`, import.meta.url);
  return [...readFileSync(file, 'utf8').matchAll(/^## `([^`]+)`/gm)].map(([, name]) => name as string);
}

/** Each name exported by more than one entry, with the entries, in order. */
function exportedTwice(namesOf: (entry: Entry) => readonly string[]): Record<string, Entry[]> {
  const entriesOf = new Map<string, Entry[]>();
  for (const entry of Object.keys(ENTRIES) as Entry[]) {
    for (const name of namesOf(entry)) entriesOf.set(name, [...(entriesOf.get(name) ?? []), entry]);
  }
  return Object.fromEntries([...entriesOf].filter(([, entries]) => entries.length > 1));
}

describe('the entry points of @dcbkit/core', () => {
  it('export each value from one entry, but for the shared ones, which are the same object everywhere', () => {
    const twice = exportedTwice((entry) => Object.keys(ENTRIES[entry].module));
    expect(twice).toEqual(SHARED);
    for (const [name, entries] of Object.entries(SHARED)) {
      const [first, ...others] = entries.map(
        (entry) => (ENTRIES[entry].module as Record<string, unknown>)[name],
      );
      for (const other of others) expect(other, name).toBe(first);
    }
  });

  it('export each type from one entry too (the API reports list values and types)', () => {
    expect(exportedTwice(reportNames)).toEqual(SHARED);
  });

  it(`keep the root at ${ROOT_NAMES_AT_MOST} names at most, values and types`, () => {
    const names = reportNames('@dcbkit/core');
    expect(names.length).toBeLessThanOrEqual(ROOT_NAMES_AT_MOST);
    // The report and the source agree on the values, so the count is of what an app sees.
    const values = Object.keys(root).sort();
    expect(names.filter((name) => values.includes(name)).sort()).toEqual(values);
  });

  it('give an app one error-code type, DcbErrorCode, the groups being data', () => {
    const codeTypes = reportNames('@dcbkit/core').filter((name) => /Code$/.test(name));
    expect(codeTypes).toEqual(['DcbErrorCode']);
    expect(Object.keys(root)).toEqual(expect.arrayContaining(['DCB_ERROR_CODES', 'errorGroupOf']));
  });
});
