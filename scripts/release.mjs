#!/usr/bin/env node
// Publishes every public package of the workspace (see .changeset/README.md):
//   1. refuses to run with uncommitted changes;
//   2. runs `pnpm test`;
//   3. packs each package and checks no `workspace:` specifier is left (scripts/check-pack.mjs);
//   4. runs `pnpm -r publish --access public --no-git-checks` (pnpm rewrites `workspace:^`).
// `--dry-run` does every step and passes --dry-run to pnpm publish.

import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPack } from './check-pack.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dryRun = process.argv.includes('--dry-run');

function fail(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}

function run(command, args) {
  console.log(`\nrelease: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0)
    fail(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}).`);
}

const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).trim();
if (dirty !== '') {
  fail(`the working tree has uncommitted changes; commit or remove them first:\n${dirty}`);
}

run('pnpm', ['test']);

console.log('\nrelease: checking the packed packages');
const problems = checkPack();
if (problems.length > 0) fail(`the packed packages are not publishable:\n- ${problems.join('\n- ')}`);

run('pnpm', ['-r', 'publish', '--access', 'public', '--no-git-checks', ...(dryRun ? ['--dry-run'] : [])]);
console.log(dryRun ? '\nrelease: dry run done; nothing was published.' : '\nrelease: published.');
