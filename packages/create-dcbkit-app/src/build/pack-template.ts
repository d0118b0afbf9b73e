import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PACKED_TEMPLATE, packageRoot, templateDir } from '../app/package-root.js';
import { listTemplate, STORED_NAMES } from '../app/template-files.js';

const STORED_NAME_OF = new Map(Object.entries(STORED_NAMES).map(([stored, name]) => [name, stored]));

/**
 * Copies the shop template (starters/shop, the only source) into this package's template/ folder
 * (or `destination`) for npm to ship: its files, data files and every overlay, the dotfiles npm would drop under their
 * stored names. Run by the build (tsup.config.ts); answers how many files it wrote.
 */
export function packTemplate(destination = join(packageRoot(), PACKED_TEMPLATE)): number {
  const source = templateDir();
  if (resolve(source) === resolve(destination)) {
    throw new Error('create-dcbkit-app: the template is packed from starters/shop, in the dcbkit repository');
  }
  rmSync(destination, { recursive: true, force: true });
  const files = listTemplate(source);
  for (const path of files) {
    const target = join(destination, STORED_NAME_OF.get(path) ?? path);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(source, path), target);
  }
  return files.length;
}
