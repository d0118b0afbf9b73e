import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { CreateAppError } from '../errors/create-app-error.js';
import type { Framework } from './frameworks.js';
import { templateDir } from './package-root.js';

/**
 * Files stored under another name in the packed template, because `npm pack` would drop or rename
 * them when this package is published (`.gitignore` above all): their name in the app (and in
 * starters/shop, the template's source).
 */
export const STORED_NAMES: Readonly<Record<string, string>> = {
  gitignore: '.gitignore',
  dockerignore: '.dockerignore',
  'env.example': '.env.example',
};

/**
 * What the template's folder holds besides the template, at its top: what running it in place
 * leaves there (installed modules, PGlite's data, local variables, the standalone sandbox's state
 * file, all in its .gitignore) and its package.json of the repository's workspace.
 */
const NOT_TEMPLATE = new Set(['node_modules', '.data', '.env', 'sandbox-state.json', 'package.json']);

/** Data files of the template, read by the generator and never written into the app. */
const DATA_FILES = new Set(['manifest.json', 'framework.json']);

/** The only files with {{placeholders}}: text that names the framework. */
const SUBSTITUTED = new Set(['README.md']);

/** The overlays' folder, relative to the template. */
const OVERLAYS = 'src/framework/';

/**
 * The app's files, by path (posix, relative to the app): the shop (every file of the template,
 * word for word the same for every framework), then the framework's own overlay,
 * src/framework/<name>/; the other frameworks' overlays are left out. `root`: the template's
 * folder, source or packed.
 */
export function templateFiles(framework: Framework, root = templateDir()): Map<string, Buffer> {
  const overlay = `${OVERLAYS}${framework.name}/`;
  const files = new Map<string, Buffer>();
  for (const path of listTemplate(root)) {
    const ownOverlay = path.startsWith(overlay);
    if (DATA_FILES.has(path.slice(ownOverlay ? overlay.length : 0))) continue;
    if (path.startsWith(OVERLAYS) && !ownOverlay) continue;
    files.set(appPathOf(path), readFileSync(join(root, path)));
  }
  for (const [path, content] of files) {
    if (SUBSTITUTED.has(path))
      files.set(path, Buffer.from(substitute(content.toString('utf8'), framework, path)));
  }
  return files;
}

/** `{{framework}}`: the framework's title. Any other placeholder is a broken template. */
export function substitute(text: string, framework: Framework, path: string): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (name === 'framework') return framework.title;
    throw new CreateAppError('template_broken', `${path} has an unknown placeholder {{${name}}}.`);
  });
}

/** A file of the template (source or packed), by its name in the app. */
function appPathOf(path: string): string {
  return STORED_NAMES[path] ?? path;
}

/**
 * Every file of the template under `root` (posix paths, sorted): the shop, its data files and
 * every overlay, what running it in place leaves there aside. What the build packs, and what
 * templateFiles chooses from.
 */
export function listTemplate(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (dir === root && NOT_TEMPLATE.has(entry.name)) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(relative(root, full).split(sep).join(posix.sep));
    }
  };
  walk(root);
  return found.sort();
}
