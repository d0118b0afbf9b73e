#!/usr/bin/env node
// Checks that no function of the packages' sources or the shop template's is longer than 80 lines
// (tests and the store conformance suites aside: a suite is a list of cases). A function that long
// does two jobs; the list below it names each one found, with its file and line.
//
//   node scripts/check-function-length.mjs [--max N]      (pnpm check:functions, in pnpm test)

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const maxIndex = process.argv.indexOf('--max');
const MAX_LINES = maxIndex > 0 ? Number(process.argv[maxIndex + 1]) : 80;
const ROOTS = ['packages', 'starters'];

function sourcesUnder(dir, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourcesUnder(path, found);
    else if (/\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name)) found.push(path);
  }
  return found;
}

const files = ROOTS.flatMap((root) =>
  readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, entry.name, 'src')),
)
  .filter((src) => {
    try {
      return readdirSync(src).length > 0;
    } catch {
      return false;
    }
  })
  .flatMap((src) => sourcesUnder(src))
  .filter((path) => !path.includes('/conformance/') && !path.includes('/test-support/'));

/** A function's name as a reader finds it: its declaration's, or the variable or property it is assigned to. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
    ts.isIdentifier(parent.name)
  )
    return parent.name.text;
  return '(anonymous)';
}

const long = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_LINES) long.push({ file, line: first + 1, name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

if (long.length > 0) {
  console.error(`check-function-length: ${long.length} function(s) longer than ${MAX_LINES} lines:`);
  for (const one of long.sort((a, b) => b.lines - a.lines))
    console.error(`  ${one.lines} lines  ${one.name}  ${one.file}:${one.line}`);
  process.exit(1);
}
console.log(`check-function-length: no function over ${MAX_LINES} lines in ${files.length} files.`);
