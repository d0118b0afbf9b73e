import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'create-dcbkit-app';

/**
 * This package's folder, found from this module upwards, so that it is the same from the sources
 * (src/app/, under tsx or vitest) and from the build (dist/cli.js).
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME
    ) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${PACKAGE_NAME}: its own package.json was not found`);
    dir = parent;
  }
}

export function templatesDir(): string {
  return join(packageRoot(), 'templates');
}

/** This package's own manifest: its version, and (once published) the dcbkit versions it was released with. */
export function ownManifest(): { version: string; devDependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'));
}
