#!/usr/bin/env node
// Packs every public package of packages/ with `pnpm pack` into a temporary folder and checks
// what a partner would install: no `workspace:` specifier left in the packed package.json (pnpm
// rewrites them to real versions when it packs and publishes), and a LICENSE, a README.md and a
// CHANGELOG.md in each tarball; in create-dcbkit-app's, the shop template its build copied from
// starters/shop (the manifest, every overlay, the .gitignore under its stored name). Run it on its
// own with `pnpm check:pack` (after `pnpm build`); scripts/release.mjs runs it before publishing.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
const REQUIRED_FILES = [
  'package/package.json',
  'package/LICENSE',
  'package/README.md',
  'package/CHANGELOG.md',
];
/** What one package's tarball needs beyond REQUIRED_FILES. */
const REQUIRED_BY_PACKAGE = {
  'create-dcbkit-app': [
    'package/template/manifest.json',
    'package/template/gitignore',
    'package/template/src/main.ts',
    'package/template/src/framework/express/framework.json',
    'package/template/src/framework/koa/framework.json',
  ],
};

/** The public packages under packages/: { dir, name }. */
export function publicPackages() {
  return readdirSync(join(root, 'packages'))
    .sort()
    .map((name) => join(root, 'packages', name))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({ dir, name: manifest.name }));
}

/** The files of a .tgz, by path: a minimal reader of (ustar) tar, enough for npm tarballs. */
function readTarball(path) {
  const tar = gunzipSync(readFileSync(path));
  const files = new Map();
  let longName;
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const text = (start, length) => header.toString('utf8', start, start + length).replace(/\0.*$/s, '');
    const size = Number.parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1);
    const prefix = text(345, 155);
    let name = longName ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100));
    longName = undefined;
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (type === 'L') longName = body.toString('utf8').replace(/\0.*$/s, '');
    else if (type === '0' || type === '') files.set(name.replace(/^\.\//, ''), body);
    name = '';
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** Every problem found in one package's tarball. */
function tarballProblems(name, tarball) {
  const files = readTarball(tarball);
  const problems = [];
  for (const required of [...REQUIRED_FILES, ...(REQUIRED_BY_PACKAGE[name] ?? [])]) {
    if (!files.has(required))
      problems.push(`${name}: the tarball has no ${required.slice('package/'.length)}`);
  }
  const manifestBytes = files.get('package/package.json');
  if (manifestBytes === undefined) return problems;
  const manifest = JSON.parse(manifestBytes.toString('utf8'));
  for (const field of DEPENDENCY_FIELDS) {
    for (const [dependency, specifier] of Object.entries(manifest[field] ?? {})) {
      if (String(specifier).startsWith('workspace:')) {
        problems.push(`${name}: ${field}.${dependency} is still "${specifier}" in the packed package.json`);
      }
    }
  }
  return problems;
}

/** Packs each public package and returns every problem found (an empty list when all is well). */
export function checkPack({ log = console.log } = {}) {
  const destination = mkdtempSync(join(tmpdir(), 'dcbkit-pack-'));
  const problems = [];
  try {
    for (const { dir, name } of publicPackages()) {
      const before = new Set(readdirSync(destination));
      execFileSync('pnpm', ['pack', '--pack-destination', destination], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const tarball = readdirSync(destination).find((file) => file.endsWith('.tgz') && !before.has(file));
      if (tarball === undefined) {
        problems.push(`${name}: pnpm pack produced no tarball in ${relative(root, dir)}`);
        continue;
      }
      const found = tarballProblems(name, join(destination, tarball));
      problems.push(...found);
      log(`${found.length === 0 ? 'ok  ' : 'FAIL'} ${name} (${tarball})`);
    }
  } finally {
    rmSync(destination, { recursive: true, force: true });
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = checkPack();
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
  console.log('check-pack: every package packs with real versions, a LICENSE, a README and a CHANGELOG.');
}
