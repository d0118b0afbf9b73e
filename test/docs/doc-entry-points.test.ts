import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of the repository, without declarations.
import { claimsOf, exportsByEntry, wrongClaims } from '../../scripts/check-doc-entry-points.mjs';

type Claim = { line: number; name: string; entry: string; how: string };

// Issue 54: docs/web-standard.md said createPartnerRoutes is in @dcbkit/core (it is in
// @dcbkit/core/node). `pnpm check:docs` reads every such claim against the API reports.
describe('the entry points the docs name', () => {
  it('reads a claim in the prose, wrapped or not, in a table row and in an import of any block', () => {
    const claims: Claim[] = claimsOf(
      [
        'On an edge runtime, `createPartnerRoutes` (and `createDcbKit`) are in',
        '`@dcbkit/core`, which signs form tokens.',
        '',
        '| `@dcbkit/core/web` | servers | `createFetchRoutes` |',
        '',
        '```js',
        "const { createPartnerRoutes } = require('@dcbkit/core/node');",
        '```',
      ].join('\n'),
    );
    expect(claims.map(({ name, entry, how }) => `${how} ${name} ${entry}`)).toEqual([
      'prose createPartnerRoutes @dcbkit/core',
      'prose createDcbKit @dcbkit/core',
      'table createFetchRoutes @dcbkit/core/web',
      'import createPartnerRoutes @dcbkit/core/node',
    ]);
  });

  it('finds the claim issue 54 reported wrong, naming where the export is', () => {
    const entries: Map<string, Set<string>> = exportsByEntry();
    expect(entries.get('@dcbkit/core/node')?.has('createPartnerRoutes')).toBe(true);
    expect(entries.get('@dcbkit/core')?.has('createPartnerRoutes')).toBe(false);
    const file = new URL('./fixtures/wrong-entry-point.md', import.meta.url).pathname;
    expect(wrongClaims([file], entries)).toEqual([
      expect.stringMatching(
        /wrong-entry-point\.md:1: says `createPartnerRoutes` from `@dcbkit\/core`, which does not export it; it is in `@dcbkit\/core\/node`\./,
      ),
    ]);
  });

  it('finds none in the repository’s docs', () => {
    expect(wrongClaims()).toEqual([]);
  });
});
