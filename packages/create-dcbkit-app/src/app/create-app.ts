import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CreateAppError } from '../errors/create-app-error.js';
import { appManifest, dcbkitPackagesOf } from './app-manifest.js';
import { findRepository, type PackageSource, packLocalPackages, registryRanges } from './dcbkit-packages.js';
import { type Framework, readFramework } from './frameworks.js';
import { templateFiles } from './template-files.js';

export interface CreateAppOptions {
  /** Where to write the app; made when missing. */
  dir: string;
  /** An overlay of the template, src/framework/<name>/: `express`, `koa`. */
  framework: string;
  /** Write into a folder that has files (overwriting the app's own files, keeping the others). */
  force?: boolean;
  /**
   * `workspace`: `workspace:^` dependencies, for an app written inside the dcbkit repository.
   * Default: packed from the repository when the generator runs from one, else the registry.
   */
  workspace?: boolean;
  /** The package name; default: the folder's name, made a valid npm name. */
  name?: string;
  /** Progress lines (packing takes a few seconds). */
  log?: (line: string) => void;
}

export interface CreatedApp {
  dir: string;
  framework: Framework;
  source: PackageSource;
  /** The app's files, written (the packed tarballs aside). */
  files: string[];
}

/** Writes a standalone app: the shop template, the framework's overlay and a package.json for the mode. */
export function createApp(options: CreateAppOptions): CreatedApp {
  const dir = resolve(options.dir);
  const framework = readFramework(options.framework);
  refuseFilledFolder(dir, options.force === true);
  const files = templateFiles(framework);
  const log = options.log ?? (() => {});

  mkdirSync(dir, { recursive: true });
  const source = packageSource(options, framework, dir, log);
  files.set(
    'package.json',
    Buffer.from(appManifest({ name: options.name ?? packageNameOf(dir), framework, source })),
  );
  for (const [path, content] of files) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return { dir, framework, source, files: [...files.keys()].sort() };
}

function packageSource(
  options: CreateAppOptions,
  framework: Framework,
  dir: string,
  log: (line: string) => void,
): PackageSource {
  if (options.workspace) return { kind: 'workspace' };
  const names = dcbkitPackagesOf(framework);
  const repository = findRepository();
  if (repository === undefined) return { kind: 'registry', ranges: registryRanges(names, undefined) };
  log(`packing ${names.join(', ')} from ${repository}`);
  return { kind: 'local', tarballs: packLocalPackages(repository, names, dir, log) };
}

/** An app is written into an empty (or new) folder only, unless --force: never over someone's work by accident. */
function refuseFilledFolder(dir: string, force: boolean): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) {
    throw new CreateAppError('invalid_command_line', `${dir} is a file, not a folder.`);
  }
  const entries = readdirSync(dir);
  if (entries.length === 0 || force) return;
  const shown =
    entries.slice(0, 5).join(', ') + (entries.length > 5 ? `, and ${entries.length - 5} more` : '');
  throw new CreateAppError(
    'folder_not_empty',
    `${dir} is not empty (${shown}): choose a new folder, or pass --force to write the app's files over it.`,
  );
}

/** `My Shop` → `my-shop`: npm's rules (lower case, no spaces, URL-safe). */
export function packageNameOf(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name === '' ? 'dcbkit-shop' : name;
}
