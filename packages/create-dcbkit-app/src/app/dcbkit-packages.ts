import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CreateAppError } from '../errors/create-app-error.js';
import { ownManifest, packageRoot } from './package-root.js';

/**
 * Where the app's @dcbkit packages come from:
 * - `workspace`: `workspace:^`, for an app written inside this repository (pnpm links them);
 * - `local`: tarballs packed from this repository into the app's dcbkit-packages/, as `file:`
 *   dependencies: what a clone of the repository gives before the packages are published, offline;
 * - `registry`: the npm registry, at the versions this generator was released with.
 */
export type PackageSource =
  | { kind: 'workspace' }
  | { kind: 'local'; tarballs: Readonly<Record<string, string>> }
  | { kind: 'registry'; ranges: Readonly<Record<string, string>> };

/** The folder of packed tarballs inside the app, in local mode. */
export const TARBALL_FOLDER = 'dcbkit-packages';

/** The dcbkit repository this generator runs from, or undefined once installed from the registry. */
export function findRepository(): string | undefined {
  const root = resolve(packageRoot(), '..', '..');
  const core = join(root, 'packages', 'core', 'package.json');
  if (!existsSync(join(root, 'pnpm-workspace.yaml')) || !existsSync(core)) return undefined;
  const { name } = JSON.parse(readFileSync(core, 'utf8')) as { name?: unknown };
  return name === '@dcbkit/core' ? root : undefined;
}

/** The repository's packages by name: `@dcbkit/core` → { dir, version }. */
function repositoryPackages(repository: string): Map<string, { dir: string; version: string }> {
  const found = new Map<string, { dir: string; version: string }>();
  for (const entry of readdirSync(join(repository, 'packages'), { withFileTypes: true })) {
    const manifest = join(repository, 'packages', entry.name, 'package.json');
    if (!entry.isDirectory() || !existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string };
    found.set(name, { dir: join(repository, 'packages', entry.name), version });
  }
  return found;
}

/**
 * The registry's version ranges: once published, this package's own devDependencies say them
 * (pnpm rewrites their `workspace:^` to `^<version>` when it publishes); from the repository,
 * the packages' own versions.
 */
export function registryRanges(
  names: readonly string[],
  repository: string | undefined,
): Record<string, string> {
  const declared = ownManifest().devDependencies ?? {};
  const packages = repository === undefined ? undefined : repositoryPackages(repository);
  return Object.fromEntries(
    names.map((name) => {
      const range = declared[name];
      if (range !== undefined && !range.startsWith('workspace:')) return [name, range];
      const version = packages?.get(name)?.version;
      if (version === undefined) {
        throw new CreateAppError('template_broken', `no version of ${name} is known to this generator.`);
      }
      return [name, `^${version}`];
    }),
  );
}

/**
 * Packs the repository's packages into `<app>/dcbkit-packages/` with `pnpm pack` (which, unlike
 * npm, rewrites the packages' `workspace:^` dependencies on each other to versions), building
 * each first when it has no dist/. Returns each tarball's path relative to the app.
 */
export function packLocalPackages(
  repository: string,
  names: readonly string[],
  app: string,
  log: (line: string) => void,
): Record<string, string> {
  const packages = repositoryPackages(repository);
  const destination = join(app, TARBALL_FOLDER);
  mkdirSync(destination, { recursive: true });
  const pnpm = pnpmCommand();
  const tarballs: Record<string, string> = {};
  for (const name of names) {
    const found = packages.get(name);
    if (found === undefined)
      throw new CreateAppError('packing_failed', `${name} is not in ${repository}/packages.`);
    if (!existsSync(join(found.dir, 'dist'))) {
      log(`building ${name} (no dist/ yet)`);
      run(pnpm, ['build'], found.dir, `building ${name}`);
    }
    run(pnpm, ['pack', '--pack-destination', destination], found.dir, `packing ${name}`);
    const file = `${name.replace(/^@/, '').replace('/', '-')}-${found.version}.tgz`;
    if (!existsSync(join(destination, file))) {
      throw new CreateAppError('packing_failed', `pnpm pack made no ${file} for ${name} in ${destination}.`);
    }
    tarballs[name] = `${TARBALL_FOLDER}/${file}`;
  }
  return tarballs;
}

/** pnpm when it is on the PATH, else the repository's own way to run it (`npx -y pnpm@10`). */
function pnpmCommand(): string[] {
  try {
    execFileSync('pnpm', ['--version'], { stdio: 'ignore', shell: process.platform === 'win32' });
    return ['pnpm'];
  } catch {
    return ['npx', '-y', 'pnpm@10'];
  }
}

function run(command: string[], args: string[], cwd: string, what: string): void {
  const [program = 'pnpm', ...before] = command;
  try {
    execFileSync(program, [...before, ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      shell: process.platform === 'win32',
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new CreateAppError(
      'packing_failed',
      `${what} failed in ${cwd}${stderr ? `:\n${stderr}` : ''}\nRun \`npx -y pnpm@10 install && npx -y pnpm@10 build\` at the repository's root, then try again.`,
    );
  }
}
