import type { DcbKit } from '@dcbkit/core';
import { checkoutRecordDownload } from '../ops/checkout-record-download.js';
import { lineView, subscriberUidFrom } from '../ops/line-view.js';
import { accountKeyFrom, accountPage, reconcileAccountNow } from '../ops/ops-pages.js';
import type { ShopReconciler } from '../reconciler.js';
import type { Views } from '../views.js';
import { downloadAnswer, type ShopAnswer, seeOther } from '../web/shop-answer.js';
import type { Handler, ShopRoute } from '../web/shop-route.js';
import { operatorPostOnly, requireOperator } from './ops-auth.js';
import type { OpsRender } from './ops-render.js';

/** A checkout record, downloaded as JSON for a complaint. */
function checkoutRecordAnswer(download: { name: string; json: string }): ShopAnswer {
  return downloadAnswer('application/json; charset=utf-8', download.name, Buffer.from(download.json, 'utf8'));
}

/** For a complaint about a line: its accounts' payments that this line consented to. */
function lineCheckoutRecord(kit: DcbKit): Handler {
  return async (request) => {
    const subscriberUid = subscriberUidFrom(request.query.line);
    if (subscriberUid === undefined) return seeOther('/ops');
    const { accounts } = await kit.explainLine(subscriberUid);
    const accountKeys = accounts.map((account) => account.accountKey);
    return checkoutRecordAnswer(await checkoutRecordDownload(kit, { accountKeys, subscriberUid }));
  };
}

/** For a complaint: the account's checkouts with what the shop showed before each. */
function accountCheckoutRecord(kit: DcbKit): Handler {
  return async (request) => {
    const accountKey = accountKeyFrom(request.query.key);
    if (accountKey === undefined) return seeOther('/ops');
    return checkoutRecordAnswer(await checkoutRecordDownload(kit, { accountKeys: [accountKey] }));
  };
}

/**
 * An account (why it has access or not, its history, the service's view, reconcile it now), a
 * phone line's accounts, and the checkout records of either for a complaint.
 */
export function opsAccountRoutes({
  kit,
  views,
  reconciler,
  shopOrigin,
  render,
}: {
  kit: DcbKit;
  views: Views;
  reconciler: ShopReconciler;
  shopOrigin: string;
  render: OpsRender;
}): ShopRoute[] {
  return [
    {
      method: 'GET',
      path: '/ops/account',
      guards: [requireOperator],
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
      guards: [requireOperator],
      handle: async (request) => {
        const subscriberUid = subscriberUidFrom(request.query.line);
        if (subscriberUid === undefined) return seeOther('/ops');
        return render(request, 'ops-line', {
          line: await lineView(kit, subscriberUid, views.context(request)),
        });
      },
    },
    {
      method: 'GET',
      path: '/ops/line/checkouts.json',
      guards: [requireOperator],
      handle: lineCheckoutRecord(kit),
    },
    {
      method: 'GET',
      path: '/ops/account/checkouts.json',
      guards: [requireOperator],
      handle: accountCheckoutRecord(kit),
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
