import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A fresh clone of `repo` in a temporary folder, with the working tree's uncommitted changes copied
 * in (modified and new files, deletions) unless `committedOnly`, so that what is measured is the
 * code as it stands, on what a clone has: no node_modules, no dist.
 */
export function freshClone(
  repo: string,
  { committedOnly = false } = {},
): { dir: string; changedFiles: number; remove(): void } {
  const parent = mkdtempSync(join(tmpdir(), 'dcbkit-first-run-'));
  const dir = join(parent, 'repo');
  execFileSync('git', ['clone', '--quiet', repo, dir]);
  const listed = (args: string[]) =>
    execFileSync('git', ['ls-files', '-z', ...args], { cwd: repo, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);
  const changed = new Set(committedOnly ? [] : listed(['--modified', '--others', '--exclude-standard']));
  for (const file of changed) {
    const target = join(dir, file);
    if (existsSync(join(repo, file))) {
      mkdirSync(dirname(target), { recursive: true });
      cpSync(join(repo, file), target);
    } else {
      rmSync(target, { force: true });
    }
  }
  return { dir, changedFiles: changed.size, remove: () => rmSync(parent, { recursive: true, force: true }) };
}
