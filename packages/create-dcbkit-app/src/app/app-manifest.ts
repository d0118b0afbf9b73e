import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateAppError } from '../errors/create-app-error.js';
import type { PackageSource } from './dcbkit-packages.js';
import type { Framework } from './frameworks.js';
import { templateDir } from './package-root.js';
import { substitute } from './template-files.js';

/** The template's manifest.json: what every framework's app has in its package.json. */
interface ShopManifest {
  description: string;
  scripts: Record<string, string>;
  /** The dcbkit packages every app uses; the framework adds its adapter. */
  dcbkitPackages: string[];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  /**
   * npm's allowScripts: the dependencies whose install scripts run (esbuild's, under tsx and
   * Vitest, checks its binary). Without it npm 11 warns on every install of the app.
   */
  allowScripts: Record<string, boolean>;
}

function readShopManifest(): ShopManifest {
  const file = join(templateDir(), 'manifest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Partial<ShopManifest>;
  const { description, scripts, dcbkitPackages, dependencies, devDependencies, allowScripts } = manifest;
  if (!description || !scripts || !dcbkitPackages || !dependencies || !devDependencies || !allowScripts) {
    throw new CreateAppError('template_broken', `${file} misses a field.`);
  }
  return { description, scripts, dcbkitPackages, dependencies, devDependencies, allowScripts };
}

/** The dcbkit packages an app on this framework depends on. */
export function dcbkitPackagesOf(framework: Framework): string[] {
  return [...readShopManifest().dcbkitPackages, framework.adapter].sort();
}

/**
 * The app's package.json: the shop's scripts and dependencies, the framework's, the dcbkit
 * packages from `source`, and `#framework` naming the framework's part of the app. In local mode
 * an `overrides` block points the packages' dependencies on each other at the same tarballs, as
 * the registry's copies would be once published.
 */
export function appManifest({
  name,
  framework,
  source,
}: {
  name: string;
  framework: Framework;
  source: PackageSource;
}): string {
  const shop = readShopManifest();
  const dcbkit = dcbkitPackagesOf(framework);
  const specifier = (pkg: string): string => {
    if (source.kind === 'workspace') return 'workspace:^';
    const value = source.kind === 'local' ? `file:${source.tarballs[pkg]}` : source.ranges[pkg];
    if (value === undefined || value === 'file:undefined') {
      throw new CreateAppError('template_broken', `no specifier for ${pkg}.`);
    }
    return value;
  };
  const manifest: Record<string, unknown> = {
    name,
    version: '0.1.0',
    private: true,
    description: substitute(shop.description, framework, 'manifest.json'),
    type: 'module',
    engines: { node: '>=20.19' },
    // The shop's one import of its framework's part (starters/shop picks one by condition).
    imports: { '#framework': `./src/framework/${framework.name}/create-shop-app.ts` },
    scripts: shop.scripts,
    dependencies: sorted({
      ...Object.fromEntries(dcbkit.map((pkg) => [pkg, specifier(pkg)])),
      ...shop.dependencies,
      ...framework.dependencies,
    }),
    devDependencies: sorted({ ...shop.devDependencies, ...framework.devDependencies }),
    allowScripts: shop.allowScripts,
  };
  if (source.kind === 'local') {
    manifest.overrides = Object.fromEntries(dcbkit.map((pkg) => [pkg, specifier(pkg)]));
  }
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function sorted(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
