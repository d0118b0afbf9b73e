#!/usr/bin/env node
// Checks that every entry point the documentation names for an export is one that exports it,
// against the committed API reports (packages/*/api/*.api.md, kept true by `pnpm check:api`).
// check-doc-snippets.mjs compiles the ```ts blocks; this reads what it cannot: the imports of
// every other block (js, mjs, tsx, sh…) and the prose, where "`createPartnerRoutes` is in
// `@dcbkit/core`" was wrong for months (issue 54).
//
//   node scripts/check-doc-entry-points.mjs [file.md ...]
//
// What is read as a claim, in the prose of README.md, ARCHITECTURE.md, docs/*.md,
// packages/*/README.md, starters/*/README.md and examples/*/README.md:
// - `name` … is in / are in / is exported by / comes from `@dcbkit/…` (the names listed before
//   the verb, backticked, joined by commas, "and", "or" or parentheses);
// - `name` from `@dcbkit/…` and `name` (from `@dcbkit/…`);
// - `@dcbkit/…`'s `name`;
// - a table row whose first cell is `@dcbkit/…`: every name the row lists (ARCHITECTURE.md's entry points);
// and in every code block, `import { … } from '@dcbkit/…'` and `const { … } = require('@dcbkit/…')`.
// A name is checked only when some API report exports it (a word that is no export is no claim),
// and an entry only when it has a report. The exit code is 1 on any wrong claim.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Every entry point with an API report, and the names it exports. */
export function exportsByEntry() {
  const entries = new Map();
  for (const pkg of readdirSync(join(root, 'packages'))) {
    let reports = [];
    try {
      reports = readdirSync(join(root, 'packages', pkg, 'api')).filter((file) => file.endsWith('.api.md'));
    } catch {
      continue;
    }
    for (const report of reports) {
      const text = readFileSync(join(root, 'packages', pkg, 'api', report), 'utf8');
      const entry = /^# API report: `([^`]+)`/m.exec(text)?.[1];
      if (entry === undefined) continue;
      entries.set(entry, new Set([...text.matchAll(/^## `([^`]+)`/gm)].map(([, name]) => name)));
    }
  }
  return entries;
}

/** The claims of one markdown text: { line, name, entry, how }. */
export function claimsOf(markdown) {
  const claims = [];
  const lines = markdown.split('\n');
  let fence;
  let prose = [];
  const flushProse = () => {
    // A paragraph at a time: a claim may wrap across lines.
    if (prose.length === 0) return;
    const start = prose[0].line;
    const text = prose.map((part) => part.text).join(' ');
    const lineAt = (index) => {
      let offset = 0;
      for (const part of prose) {
        offset += part.text.length + 1;
        if (index < offset) return part.line;
      }
      return start;
    };
    const listed = String.raw`((?:\x60\w+(?:\(\))?\x60[\s,()]*(?:(?:and|or)\s+)?)+)`;
    const entry = String.raw`\x60(@dcbkit\/[\w/.-]+)\x60`;
    const patterns = [
      new RegExp(
        `${listed}(?:\\([^)]*\\)\\s*)?(?:is|are)\\s+(?:exported\\s+|only\\s+|also\\s+)?(?:in|by|from)\\s+${entry}`,
        'g',
      ),
      new RegExp(`${listed}\\(?from\\s+${entry}`, 'g'),
    ];
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) {
        for (const [, name] of match[1].matchAll(/\x60(\w+)(?:\(\))?\x60/g)) {
          claims.push({ line: lineAt(match.index), name, entry: match[2], how: 'prose' });
        }
      }
    }
    for (const match of text.matchAll(/\x60(@dcbkit\/[\w/.-]+)\x60's\s+\x60(\w+)(?:\(\))?\x60/g)) {
      claims.push({ line: lineAt(match.index), name: match[2], entry: match[1], how: 'prose' });
    }
    prose = [];
  };
  lines.forEach((text, index) => {
    const line = index + 1;
    // A table row for one entry point (ARCHITECTURE.md's "Entry points by audience"): the names it lists.
    const row = fence === undefined ? /^\|\s*\x60(@dcbkit\/[\w/.-]+)\x60\s*\|(.*)$/.exec(text) : null;
    if (row) {
      for (const [, name] of row[2].matchAll(/\x60(\w+)(?:\(\))?\x60/g)) {
        claims.push({ line, name, entry: row[1], how: 'table' });
      }
      return;
    }
    if (/^\s*(```|~~~)/.test(text)) {
      flushProse();
      fence = fence === undefined ? line : undefined;
      return;
    }
    if (fence !== undefined) return;
    if (text.trim() === '') flushProse();
    else prose.push({ line, text });
  });
  flushProse();

  // Imports in code blocks, of whatever language: the statement may span lines.
  const code = markdown.replace(/^(?!\s*(```|~~~))/gm, (m) => m);
  const blocks = [...code.matchAll(/^\s*(?:```|~~~)[^\n]*\n([\s\S]*?)^\s*(?:```|~~~)/gm)];
  for (const block of blocks) {
    const blockLine = markdown.slice(0, block.index).split('\n').length + 1;
    const body = block[1];
    const statements = [
      ...body.matchAll(
        /import\s+(?:type\s+)?(?:\w+\s*,\s*)?\{([^}]*)\}\s*from\s*['"](@dcbkit\/[\w/.-]+)['"]/g,
      ),
      ...body.matchAll(/\{([^}]*)\}\s*=\s*(?:await\s+import|require)\(\s*['"](@dcbkit\/[\w/.-]+)['"]\s*\)/g),
    ];
    for (const statement of statements) {
      const line = blockLine + body.slice(0, statement.index).split('\n').length - 1;
      for (const part of statement[1].split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+|\s*:\s*/)[0]
          ?.trim();
        if (name) claims.push({ line, name, entry: statement[2], how: 'import' });
      }
    }
  }
  return claims;
}

/** The markdown files a partner or contributor reads. */
function documents() {
  const files = ['README.md', 'ARCHITECTURE.md'];
  const add = (dir, filter = (name) => name.endsWith('.md')) => {
    try {
      for (const name of readdirSync(join(root, dir))) if (filter(name)) files.push(join(dir, name));
    } catch {}
  };
  add('docs');
  for (const group of ['packages', 'starters', 'examples']) {
    for (const name of readdirSync(join(root, group))) add(join(group, name), (file) => file === 'README.md');
  }
  return files;
}

/** Every wrong claim, as `file:line: message`. */
export function wrongClaims(files = documents(), entries = exportsByEntry()) {
  const known = new Set([...entries.values()].flatMap((names) => [...names]));
  const problems = [];
  for (const file of files) {
    const text = readFileSync(resolve(root, file), 'utf8');
    for (const { line, name, entry, how } of claimsOf(text)) {
      const names = entries.get(entry);
      if (names === undefined || !known.has(name) || names.has(name)) continue;
      const homes = [...entries].filter(([, exported]) => exported.has(name)).map(([home]) => home);
      problems.push(
        `${relative(root, resolve(root, file))}:${line}: ${how === 'import' ? 'imports' : 'says'} \`${name}\` from \`${entry}\`, which does not export it; it is in ${homes.map((home) => `\`${home}\``).join(', ')}.`,
      );
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const given = process.argv.slice(2);
  const problems = wrongClaims(given.length > 0 ? given : undefined);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(
      `${problems.length} wrong entry point${problems.length === 1 ? '' : 's'} in the docs (against packages/*/api/*.api.md).`,
    );
    process.exit(1);
  }
  console.log('Every entry point the docs name for an export exports it.');
}
