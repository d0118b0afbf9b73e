import { readFile } from 'node:fs/promises';
import type { Middleware } from 'koa';

/** The files of public/ the pages use, with their types. Nothing else under /static is served. */
const PUBLIC_FILES: Readonly<Record<string, string>> = {
  'style.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
  'check-again.js': 'text/javascript; charset=utf-8',
  'embedded-checkout.js': 'text/javascript; charset=utf-8',
};

const PUBLIC_DIR = new URL('../public/', import.meta.url);

/**
 * Serves `/static/<file>` from public/, for the files listed above only: a fixed list rather than
 * a static-file middleware, so no path from a request ever reaches the file system (no `..`, no
 * dotfiles) and the starter needs no other dependency. Add a line when you add a file.
 * Read on each request, so an edited stylesheet shows on reload; cached by browsers for an hour.
 */
export function staticFiles(prefix = '/static/'): Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(prefix) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const name = ctx.path.slice(prefix.length);
    const type = Object.hasOwn(PUBLIC_FILES, name) ? PUBLIC_FILES[name] : undefined;
    if (type === undefined) return next();
    ctx.set('cache-control', 'public, max-age=3600');
    ctx.type = type;
    ctx.body = await readFile(new URL(name, PUBLIC_DIR));
  };
}
