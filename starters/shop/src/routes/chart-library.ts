import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { immutableFileAnswer } from '../web/shop-answer.js';
import type { ShopRoute } from '../web/shop-route.js';

// Chart.js 4 draws the Business page's charts. Why this library: MIT, kept up, no dependency of
// its own, one UMD file the shop serves itself (the page works offline and the CSP stays
// 'self'), canvas charts that follow the page's locale and right-to-left text (`rtl`,
// `textDirection`), and line dashes and point styles besides colours.
// Its exports map has no entry for the UMD build: it sits beside the CommonJS one.
const require = createRequire(import.meta.url);
const distDir = dirname(require.resolve('chart.js'));
const version = (JSON.parse(readFileSync(join(distDir, '..', 'package.json'), 'utf8')) as { version: string })
  .version;

/** Where the page loads Chart.js from: the version in the name, so a year's cache never serves an old one. */
export const CHART_LIBRARY_PATH = `/ops/assets/chart-${version}.umd.min.js`;

let library: Buffer | undefined;

/** `GET /ops/assets/chart-<version>.umd.min.js`: Chart.js from the shop's own node_modules, no CDN. */
export function chartLibraryRoutes(): ShopRoute[] {
  return [
    {
      method: 'GET',
      path: CHART_LIBRARY_PATH,
      handle: () => {
        library ??= readFileSync(join(distDir, 'chart.umd.min.js'));
        return immutableFileAnswer('text/javascript; charset=utf-8', library);
      },
    },
  ];
}
