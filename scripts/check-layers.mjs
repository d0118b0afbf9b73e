#!/usr/bin/env node
// Checks the packages' architecture with dependency-cruiser: no circular import inside the packages'
// src/ and the shop template's (starters/*/src), and the layering of each one's top-level src/
// folders. The layer lists and the rules live in .dependency-cruiser.cjs (one `layers` object at
// its top); this script runs the cruise, prints what it found and exits 1 on any violation.
//
//   node scripts/check-layers.mjs            (pnpm check:layers)
//
// Paths are relative to the working directory, which must hold .dependency-cruiser.cjs, the
// tsconfig.json it names, packages/*/src and starters/*/src (the repository root, or a copy of it
// for a test).
//
// What it prints, besides the violations (`rule: from -> to`, with the whole loop for a cycle):
// - how many modules and dependencies were cruised, and how many imports resolved to a module of
//   the same package's src/. Zero of those means nothing was checked, and fails;
// - a warning per top-level folder of a layered package that its list does not name (anything
//   importing it from a layer is a violation, but the list is likely out of date).

import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const CONFIG = './.dependency-cruiser.cjs';
const started = performance.now();
const cwd = process.cwd();
const require = createRequire(join(cwd, 'noop.js'));

/** @type {Record<string, Array<string | string[]>>} */
const layers = require(resolve(cwd, CONFIG)).layers ?? {};
const isDirectory = (path) => existsSync(path) && statSync(path).isDirectory();

const sourceDirs = ['packages', 'starters']
  .filter(isDirectory)
  .flatMap((root) => readdirSync(root).map((name) => `${root}/${name}/src`))
  .filter(isDirectory)
  .sort();

const warnings = [];
for (const pkg of Object.keys(layers)) {
  if (!sourceDirs.includes(`${pkg}/src`))
    warnings.push(`${CONFIG} lists layers for ${pkg}, which has no src/`);
}
for (const src of sourceDirs) {
  const pkg = src.replace(/\/src$/, '');
  const folders = layers[pkg];
  if (folders === undefined) {
    warnings.push(`${pkg} has no entry in the layers of ${CONFIG} (only the cycle rule applies)`);
    continue;
  }
  if (folders.length === 0) continue;
  for (const entry of readdirSync(src).sort()) {
    if (entry === 'test-support' || !isDirectory(join(src, entry))) continue;
    if (!folders.flat().includes(entry)) {
      warnings.push(`${src}/${entry}/ is not in the layer list of ${pkg} (nothing may import it but src/*)`);
    }
  }
}

const options = await extractDepcruiseOptions(CONFIG);
const tsConfigFile = options.tsConfig?.fileName;
const tsConfig = tsConfigFile ? extractTSConfig(tsConfigFile) : undefined;
const { output } = await cruise(sourceDirs, options, { tsConfig: tsConfigFile }, { tsConfig });
if (typeof output === 'string') throw new Error('dependency-cruiser returned a report, not a result');

// Imports that resolved to a module of the importer's own package src/: what the rules are about.
const packageOf = (path) => /^((?:packages|starters)\/[^/]+)\/src\//.exec(path)?.[1];
const local = new Map(sourceDirs.map((src) => [src.replace(/\/src$/, ''), { modules: 0, imports: 0 }]));
for (const module of output.modules) {
  const pkg = packageOf(module.source);
  const counts = pkg && local.get(pkg);
  if (!counts) continue;
  counts.modules += 1;
  counts.imports += module.dependencies.filter((d) => packageOf(d.resolved) === pkg).length;
}
const { summary } = output;
const localImports = [...local.values()].reduce((sum, counts) => sum + counts.imports, 0);
const seconds = ((performance.now() - started) / 1000).toFixed(1);

console.log(
  `check:layers: ${summary.totalCruised} modules, ${summary.totalDependenciesCruised} dependencies ` +
    `cruised; ${localImports} imports resolved within their package's src/ (${seconds}s)`,
);
for (const [pkg, counts] of local) {
  const folders = layers[pkg];
  const rules = folders?.length ? `${folders.length} layers` : 'cycles only';
  console.log(`  ${pkg}: ${counts.modules} modules, ${counts.imports} internal imports, ${rules}`);
}
for (const warning of warnings) console.log(`warning: ${warning}`);

const byRule = new Map();
for (const violation of summary.violations) {
  const lines = byRule.get(violation.rule.name) ?? [];
  const cycle = violation.cycle?.map((step) => step.name);
  lines.push(
    cycle ? `  ${[violation.from, ...cycle].join('\n    -> ')}` : `  ${violation.from} -> ${violation.to}`,
  );
  byRule.set(violation.rule.name, lines);
}
const comments = new Map(options.ruleSet.forbidden.map((rule) => [rule.name, rule.comment]));
for (const [name, lines] of [...byRule].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`\n${name} (${lines.length}): ${comments.get(name) ?? ''}`);
  for (const line of lines.sort()) console.log(line);
}

if (localImports === 0) {
  console.log('\ncheck:layers: no import resolved within a package: the rules checked nothing.');
  process.exit(1);
}
if (summary.violations.length > 0) {
  console.log(`\ncheck:layers: ${summary.violations.length} violation(s) of the rules in ${CONFIG}.`);
  process.exit(1);
}
console.log('check:layers: no violations.');
