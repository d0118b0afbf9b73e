import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { createApp } from '../app/create-app.js';
import { frameworkNames } from '../app/frameworks.js';

/** The committed starter of each framework: starters/<framework>, the package @dcbkit/starter-<framework>. */
export function starterOf(repository: string, framework: string): { dir: string; name: string } {
  return { dir: join(repository, 'starters', framework), name: `@dcbkit/starter-${framework}` };
}

/**
 * What a starter's folder holds that is not the generator's: what its .gitignore lists (installed
 * modules, PGlite's data, local variables, the standalone sandbox's state file). Kept when it is
 * made again, never compared.
 */
const KEPT = new Set(['node_modules', '.data', '.env', 'sandbox-state.json']);

/**
 * Writes every framework's starter into `repository`/starters/ in workspace mode, after removing
 * what the last generation wrote (a file the template dropped must not linger). Answers the folders.
 */
export function generateStarters(repository: string): string[] {
  return frameworkNames().map((framework) => {
    const { dir, name } = starterOf(repository, framework);
    if (existsSync(dir)) {
      for (const entry of readdirSync(dir)) {
        if (!KEPT.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
      }
    }
    createApp({ dir, framework, workspace: true, force: true, name });
    return dir;
  });
}

/**
 * The files that differ between a committed starter and a fresh generation of it: changed,
 * missing from the starter, or only in the starter (KEPT aside). Empty when they match.
 */
export function starterDrift(committed: string, generated: string): string[] {
  const committedFiles = listFiles(committed);
  const generatedFiles = listFiles(generated);
  const drift: string[] = [];
  for (const path of generatedFiles) {
    if (!committedFiles.has(path)) drift.push(`${path} (missing from the starter)`);
    else if (!readFileSync(join(committed, path)).equals(readFileSync(join(generated, path)))) {
      drift.push(`${path} (differs)`);
    }
  }
  for (const path of committedFiles) if (!generatedFiles.has(path)) drift.push(`${path} (not generated)`);
  return drift.sort();
}

function listFiles(root: string): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (KEPT.has(entry.name)) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.add(relative(root, full).split(sep).join(posix.sep));
    }
  };
  if (existsSync(root)) walk(root);
  return found;
}
