import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Packs workspace packages as they would be published: `pnpm pack` rewrites workspace:^ to
 * versions. It packs dist/ as it is (`pnpm test` builds first); run alone, it builds the packages
 * when one has no dist/. Resolves each tarball's path by package name.
 */
export function packPackages(folders: readonly string[], destination: string): Record<string, string> {
  if (folders.some((name) => !existsSync(join(ROOT, 'packages', name, 'dist')))) {
    const filters = folders.flatMap((name) => ['--filter', `./packages/${name}`]);
    execFileSync('pnpm', [...filters, 'build'], { cwd: ROOT, stdio: 'ignore' });
  }
  const tarballOf: Record<string, string> = {};
  for (const name of folders) {
    const dir = join(ROOT, 'packages', name);
    const before = new Set(existsSync(destination) ? readdirSync(destination) : []);
    execFileSync('pnpm', ['pack', '--pack-destination', destination], { cwd: dir, stdio: 'ignore' });
    const packed = readdirSync(destination).find((file) => !before.has(file));
    if (!packed) throw new Error(`pnpm pack made no tarball for ${name}`);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string };
    tarballOf[manifest.name] = join(destination, packed);
  }
  return tarballOf;
}

/**
 * Points a manifest at the tarballs: direct dependencies, and `overrides` so that the packed
 * packages' dependencies on each other (@dcbkit/core ^0.1.0) resolve to the local tarballs too,
 * as the registry's copies would once published.
 */
export function useTarballs(
  manifest: { dependencies: Record<string, string>; overrides?: Record<string, string> },
  tarballOf: Record<string, string>,
): void {
  for (const [name, tarball] of Object.entries(tarballOf)) {
    if (manifest.dependencies[name] !== undefined) manifest.dependencies[name] = `file:${tarball}`;
  }
  manifest.overrides = Object.fromEntries(
    Object.entries(tarballOf).map(([name, tarball]) => [name, `file:${tarball}`]),
  );
}

/** A quiet `npm install` in `folder`, as a partner runs it. */
export function npmInstall(folder: string, args: readonly string[], timeoutMs: number): void {
  execFileSync('npm', ['install', ...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: folder,
    stdio: 'ignore',
    timeout: timeoutMs,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

/** npmInstall without blocking: several apps' installs wait on the registry at once. */
export async function npmInstallAsync(
  folder: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<void> {
  await promisify(execFile)('npm', ['install', ...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: folder,
    timeout: timeoutMs,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}
