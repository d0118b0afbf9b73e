import type { DcbKit } from '@dcbkit/core';
import { businessCsvDownload, businessPage } from '../ops/business-page.js';
import { BUSINESS_VIEWS } from '../ops/business-views.js';
import type { Views } from '../views.js';
import { downloadAnswer, movedPermanently, textAnswer } from '../web/shop-answer.js';
import type { ShopRoute } from '../web/shop-route.js';
import { CHART_LIBRARY_PATH } from './chart-library.js';
import { requireOperator } from './ops-auth.js';
import type { OpsRender } from './ops-render.js';

/** The Business page (kit.metrics as charts and tables) and its CSVs. */
export function opsBusinessRoutes({
  kit,
  views,
  render,
}: {
  kit: DcbKit;
  views: Views;
  render: OpsRender;
}): ShopRoute[] {
  return [
    {
      method: 'GET',
      path: '/ops/business',
      guards: [requireOperator],
      handle: async (request) =>
        render(request, 'ops-business', {
          ...(await businessPage(kit, request.query, views.context(request))),
          chartLibrary: CHART_LIBRARY_PATH,
        }),
    },
    // The metrics CSV's address before the page had views: a bookmark or a script still finds it.
    {
      method: 'GET',
      path: '/ops/business.csv',
      guards: [requireOperator],
      handle: (request) => {
        const query = request.url.indexOf('?');
        return movedPermanently(`/ops/business/metrics.csv${query < 0 ? '' : request.url.slice(query)}`);
      },
    },
    // One CSV per view of the Business page: a new view brings its download with it.
    ...BUSINESS_VIEWS.map(
      (view): ShopRoute => ({
        method: 'GET',
        path: `/ops/business/${view.id}.csv`,
        guards: [requireOperator],
        handle: async (request) => {
          const download = await businessCsvDownload(kit, view, request.query, views.context(request));
          if (!download.ok) return textAnswer(400, download.error);
          return downloadAnswer('text/csv; charset=utf-8', download.name, Buffer.from(download.csv, 'utf8'));
        },
      }),
    ),
  ];
}
