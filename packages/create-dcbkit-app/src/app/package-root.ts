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

/** Where this package's copy of the template sits once built (`pnpm build` writes it; npm ships it). */
export const PACKED_TEMPLATE = 'template';

/**
 * The shop template: in the dcbkit repository, starters/shop itself (the only source, so an app
 * written from a clone is the template as it is now, built or not); once installed, the copy the
 * build packed into this package (packed-template.ts).
 */
export function templateDir(): string {
  const source = join(packageRoot(), '..', '..', 'starters', 'shop');
  return existsSync(join(source, 'manifest.json')) ? source : join(packageRoot(), PACKED_TEMPLATE);
}

/** This package's own manifest: its version, and (once published) the dcbkit versions it was released with. */
export function ownManifest(): { version: string; devDependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'));
}
