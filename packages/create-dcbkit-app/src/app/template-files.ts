import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { CreateAppError } from '../errors/create-app-error.js';
import type { Framework } from './frameworks.js';
import { templatesDir } from './package-root.js';

/**
 * Files stored under another name in the templates, because `npm pack` would drop or rename them
 * when this package is published (`.gitignore` above all): their name in the app.
 */
export const STORED_NAMES: Readonly<Record<string, string>> = {
  gitignore: '.gitignore',
  dockerignore: '.dockerignore',
  'env.example': '.env.example',
};

/** Data files of the templates, read by the generator and never written into the app. */
const DATA_FILES = new Set(['manifest.json', 'framework.json']);

/** The only files with {{placeholders}}: text that names the framework. */
const SUBSTITUTED = new Set(['README.md']);

/**
 * The app's files, by path (posix, relative to the app): templates/shop/ (the shop, word for word
 * the same for every framework), then the framework's overlay on top (only what differs: its
 * src/framework/). An overlay file may not replace a shop file: a difference between frameworks
 * lives in the overlay alone.
 */
export function templateFiles(framework: Framework): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const shop = join(templatesDir(), 'shop');
  for (const path of listFiles(shop)) files.set(appPathOf(path), readFileSync(join(shop, path)));
  const overlay = join(templatesDir(), 'frameworks', framework.name);
  for (const path of listFiles(overlay)) {
    const target = appPathOf(path);
    if (files.has(target)) {
      throw new CreateAppError(
        'template_broken',
        `the ${framework.name} overlay replaces the shop's ${target}.`,
      );
    }
    files.set(target, readFileSync(join(overlay, path)));
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

function appPathOf(path: string): string {
  return STORED_NAMES[path] ?? path;
}

/** Every file under `root` (posix paths, sorted), the data files at its top left out. */
function listFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(relative(root, full).split(sep).join(posix.sep));
    }
  };
  walk(root);
  return found.filter((path) => !DATA_FILES.has(path)).sort();
}
