#!/usr/bin/env node
// Checks that ARCHITECTURE.md names only what exists: every file or folder it cites in backticks
// (`access/decide.ts`, `store-postgres/src/store/apply-once.ts`, `apply/`) is a path of the
// repository, whole or as the end of one; every code name (`applyOnce`, `OnceStore`,
// `METRICS_MEASURES`) is declared in the packages', the shop's, the benches' or the tests' sources. A rename
// that forgets the map fails `pnpm test` here, not a newcomer's afternoon.
//
//   node scripts/check-architecture.mjs [file]     (ARCHITECTURE.md by default)

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.cwd();
const file = process.argv[2] ?? 'ARCHITECTURE.md';
const SKIP = new Set(['node_modules', '.git', 'dist', '.turbo', 'coverage']);

/** Every file and folder of the repository, relative to its root, folders with a trailing slash. */
function pathsUnder(dir, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      found.push(`${relative(root, path)}/`);
      pathsUnder(path, found);
    } else found.push(relative(root, path));
  }
  return found;
}

const paths = pathsUnder(root);
const sources = paths.filter(
  (path) =>
    /^(packages|starters|bench)\/[^/]+\/src\/.*\.tsx?$/.test(path) ||
    /^test\/.*\.tsx?$/.test(path) ||
    /^scripts\/.*\.m?js$/.test(path),
);
const declared = new Set();
for (const source of sources) {
  const text = readFileSync(join(root, source), 'utf8');
  for (const [, name] of text.matchAll(
    /\b(?:function\*?|class|interface|type|const|let|enum|namespace)\s+([A-Za-z_$][\w$]*)/g,
  ))
    declared.add(name);
  // Methods and properties of a returned object or an interface: `applyOnce(`, `applyOnce:`.
  for (const [, name] of text.matchAll(/^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\??\s*[(:<]/gm))
    declared.add(name);
}

const looksLikePath = (token) =>
  /^[\w@.*-]+(\/[\w@.*-]*)*$/.test(token) &&
  (/\.(ts|mjs|cjs|js|json|md|yaml)$/.test(token) || token.endsWith('/'));
const looksLikeName = (token) =>
  /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/.test(token) || // camelCase
  /^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/.test(token) || // PascalCase of two words or more
  /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(token); // UPPER_SNAKE

const exists = (token) => {
  const wanted = token.replace(/^\.\//, '');
  if (wanted.includes('*')) {
    const pattern = new RegExp(`(^|/)${wanted.replaceAll('.', '\\.').replaceAll('*', '[^/]*')}$`);
    return paths.some((path) => pattern.test(path));
  }
  return paths.some((path) => path === wanted || path.endsWith(`/${wanted}`));
};

const text = readFileSync(join(root, file), 'utf8');
const missing = [];
for (const [, token] of text.matchAll(/`([^`\n]+)`/g)) {
  const bare = token.replace(/\(\)$/, '');
  // Outside the repository (`../shared/…`), a URL path (`/ops`), a package name, or a build's output (`dist/`).
  const elsewhere = /^(\.\.\/|\/|@|dist\/)/.test(bare);
  if (looksLikePath(bare) && !elsewhere) {
    if (!exists(bare)) missing.push(`file ${bare}`);
  } else if (looksLikeName(bare) && !declared.has(bare)) missing.push(`name ${bare}`);
}
const unique = [...new Set(missing)];
if (unique.length > 0) {
  console.error(`check-architecture: ${file} names ${unique.length} thing(s) that do not exist:`);
  for (const one of unique) console.error(`  ${one}`);
  process.exit(1);
}
console.log(`check-architecture: every file and name ${file} cites exists.`);
