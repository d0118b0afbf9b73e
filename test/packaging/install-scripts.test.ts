import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/pack-packages.js';

/** A top-level list of pnpm-workspace.yaml (`name:` then `  - item` lines), its items unquoted. */
function listOf(yaml: string, name: string): string[] {
  const block = new RegExp(`^${name}:\\n((?:  - .+\\n)+)`, 'm').exec(yaml)?.[1] ?? '';
  return [...block.matchAll(/^ {2}- "?([^"\n]+)"?$/gm)].map(([, item = '']) => item);
}

/** Every installed package (node_modules/.pnpm) whose manifest has an install script, by name. */
function packagesWithInstallScripts(): Set<string> {
  const store = join(ROOT, 'node_modules', '.pnpm');
  const found = new Set<string>();
  for (const entry of readdirSync(store)) {
    const modules = join(store, entry, 'node_modules');
    if (!existsSync(modules)) continue;
    for (const scope of readdirSync(modules)) {
      const names = scope.startsWith('@')
        ? readdirSync(join(modules, scope)).map((name) => `${scope}/${name}`)
        : [scope];
      for (const name of names) {
        const manifest = join(modules, name, 'package.json');
        if (!existsSync(manifest)) continue;
        const { scripts = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as {
          scripts?: Record<string, string>;
        };
        if (scripts.preinstall || scripts.install || scripts.postinstall) found.add(name);
      }
    }
  }
  return found;
}

// Issue 54: the README's first command (`pnpm install`) ended with pnpm's "Ignored build scripts:
// workerd". pnpm prints that for every package with an install script that pnpm-workspace.yaml
// neither allows (onlyBuiltDependencies) nor ignores on purpose (ignoredBuiltDependencies).
describe('the install scripts of the installed packages', () => {
  it('are each allowed or ignored on purpose, so that a fresh install warns of none', () => {
    const yaml = readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
    const decided = new Set([
      ...listOf(yaml, 'onlyBuiltDependencies'),
      ...listOf(yaml, 'ignoredBuiltDependencies'),
    ]);
    expect(decided).toContain('workerd');
    const undecided = [...packagesWithInstallScripts()].filter((name) => !decided.has(name)).sort();
    expect(undecided).toEqual([]);
  });
});
