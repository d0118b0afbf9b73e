import type { DcbKit } from '@dcbkit/core';
import { linesPayingTwice } from '../line-pays-twice.js';
import type { ShopLogger } from '../logger.js';
import { businessCsvDownload, businessPage } from '../ops/business-page.js';
import { BUSINESS_VIEWS } from '../ops/business-views.js';
import { checkoutRecordDownload } from '../ops/checkout-record-download.js';
import { lineView, subscriberUidFrom } from '../ops/line-view.js';
import type { OperatorAccess } from '../ops/operator-password.js';
import {
  accountKeyFrom,
  accountPage,
  homePage,
  opsFrame,
  reconcileAccountNow,
  reconcilePage,
  webhooksPage,
} from '../ops/ops-pages.js';
import type { ShopReconciler } from '../reconciler.js';
import type { Views } from '../views.js';
import { downloadAnswer, movedPermanently, seeOther, textAnswer } from '../web/shop-answer.js';
import type { ShopRequest } from '../web/shop-request.js';
import type { ShopRoute } from '../web/shop-route.js';
import { CHART_LIBRARY_PATH } from './chart-library.js';
import { operatorIdOfRequest, operatorPostOnly, opsAuthRoutes, requireOperator } from './ops-auth.js';

/**
 * The operations view, for the shop's operators: find an account, see why it has access or not
 * and its history, compare with the service, reconcile it now; webhook health and recent
 * deliveries; the reconciler's last runs; the business at a glance (kit.metrics), as charts,
 * tables and a CSV; a phone line's accounts, and a banner naming the lines that pay twice. The pages' data comes from ops/ops-pages.ts; this only
 * reads requests and renders.
 */
export function opsRoutes({
  kit,
  views,
  reconciler,
  shopOrigin,
  access,
  logger,
}: {
  kit: DcbKit;
  views: Views;
  reconciler: ShopReconciler;
  shopOrigin: string;
  /** Undefined: no OPERATOR_PASSWORD outside the embedded sandbox, so the view is off. */
  access: OperatorAccess | undefined;
  logger: ShopLogger;
}): ShopRoute[] {
  if (access === undefined) {
    // Off: every address under /ops says so, and how to turn it on; nothing else is served there.
    return [
      {
        method: 'ALL',
        path: '/ops{/*rest}',
        handle: (request) => views.render(request, 'ops-disabled', {}, 404),
      },
    ];
  }

  // Every page of a signed-in operator names the lines that pay twice (from the store, so every instance agrees).
  const render = async (request: ShopRequest, template: string, data: object) =>
    views.render(request, template, {
      ...opsFrame(kit, operatorIdOfRequest(request) ?? ''),
      linesPayingTwice: await linesPayingTwice(kit),
      ...data,
    });
  const operatorOnly = [requireOperator];

  return [
    ...opsAuthRoutes({ kit, views, shopOrigin, access, logger }),
    {
      method: 'GET',
      path: '/ops',
      guards: operatorOnly,
      handle: (request) => render(request, 'ops-home', homePage(kit)),
    },
    {
      method: 'GET',
      path: '/ops/webhooks',
      guards: operatorOnly,
      handle: async (request) =>
        render(request, 'ops-webhooks', await webhooksPage(kit, views.context(request))),
    },
    {
      method: 'GET',
      path: '/ops/reconcile',
      guards: operatorOnly,
      handle: (request) =>
        render(request, 'ops-reconcile', reconcilePage(reconciler, kit, views.context(request))),
    },
    {
      method: 'GET',
      path: '/ops/business',
      guards: operatorOnly,
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
      guards: operatorOnly,
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
        guards: operatorOnly,
        handle: async (request) => {
          const download = await businessCsvDownload(kit, view, request.query, views.context(request));
          if (!download.ok) return textAnswer(400, download.error);
          return downloadAnswer('text/csv; charset=utf-8', download.name, Buffer.from(download.csv, 'utf8'));
        },
      }),
    ),
    {
      method: 'GET',
      path: '/ops/account',
      guards: operatorOnly,
      handle: async (request) => {
        const accountKey = accountKeyFrom(request.query.key);
        if (accountKey === undefined) return seeOther('/ops');
        const words = views.context(request);
        const read = request.query.read === '1';
        return render(request, 'ops-account', await accountPage(kit, accountKey, { read, words }));
      },
    },
    {
      method: 'GET',
      path: '/ops/line',
      guards: operatorOnly,
      handle: async (request) => {
        const subscriberUid = subscriberUidFrom(request.query.line);
        if (subscriberUid === undefined) return seeOther('/ops');
        return render(request, 'ops-line', {
          line: await lineView(kit, subscriberUid, views.context(request)),
        });
      },
    },
    {
      // For a complaint about a line: its accounts' payments that this line consented to (JSON).
      method: 'GET',
      path: '/ops/line/checkouts.json',
      guards: operatorOnly,
      handle: async (request) => {
        const subscriberUid = subscriberUidFrom(request.query.line);
        if (subscriberUid === undefined) return seeOther('/ops');
        const { accounts } = await kit.explainLine(subscriberUid);
        const accountKeys = accounts.map((account) => account.accountKey);
        const download = await checkoutRecordDownload(kit, { accountKeys, subscriberUid });
        return downloadAnswer(
          'application/json; charset=utf-8',
          download.name,
          Buffer.from(download.json, 'utf8'),
        );
      },
    },
    {
      // For a complaint: the account's checkouts with what the shop showed before each (JSON).
      method: 'GET',
      path: '/ops/account/checkouts.json',
      guards: operatorOnly,
      handle: async (request) => {
        const accountKey = accountKeyFrom(request.query.key);
        if (accountKey === undefined) return seeOther('/ops');
        const download = await checkoutRecordDownload(kit, { accountKeys: [accountKey] });
        return downloadAnswer(
          'application/json; charset=utf-8',
          download.name,
          Buffer.from(download.json, 'utf8'),
        );
      },
    },
    {
      method: 'POST',
      path: '/ops/account/reconcile',
      guards: [operatorPostOnly({ kit, shopOrigin })],
      handle: async (request) => {
        const accountKey = accountKeyFrom(request.form.key);
        if (accountKey === undefined) return seeOther('/ops');
        const words = views.context(request);
        // The result is this response's page: a reload asks again, which reconciling allows.
        const done = await reconcileAccountNow(kit, reconciler, accountKey, words);
        const page = await accountPage(kit, accountKey, { read: false, words });
        return render(request, 'ops-account', { ...page, ...done });
      },
    },
  ];
}
