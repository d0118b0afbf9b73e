import { readFile } from 'node:fs/promises';
import { fileAnswer } from '../web/shop-answer.js';
import type { ShopRoute } from '../web/shop-route.js';

/** The files of public/ the pages use, with their types. Nothing else under /static is served. */
const PUBLIC_FILES: Readonly<Record<string, string>> = {
  'style.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
  'check-again.js': 'text/javascript; charset=utf-8',
  'embedded-checkout.js': 'text/javascript; charset=utf-8',
  'business-charts.js': 'text/javascript; charset=utf-8',
};

const PUBLIC_DIR = new URL('../../public/', import.meta.url);

/**
 * `GET /static/<file>` from public/, for the files listed above only: a fixed list rather than a
 * static-file middleware, so no path from a request ever reaches the file system (no `..`, no
 * dotfiles) and the shop needs no other dependency. Add a line when you add a file. Read on each
 * request, so an edited stylesheet shows on reload; cached by browsers for an hour. Any other name
 * goes on to the not-found page.
 */
export function staticFileRoutes(): ShopRoute[] {
  return [
    {
      method: 'GET',
      path: '/static/:name',
      handle: async ({ params: { name = '' } }) => {
        const type = Object.hasOwn(PUBLIC_FILES, name) ? PUBLIC_FILES[name] : undefined;
        if (type === undefined) return undefined;
        return fileAnswer(type, await readFile(new URL(name, PUBLIC_DIR)));
      },
    },
  ];
}
