import type { DcbKit } from '@dcbkit/core';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ShopLogger } from '../logger.js';
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
import { seeOther } from '../redirect.js';
import type { Views } from '../views.js';
import { formOf } from './auth.js';
import { operatorIdOfRequest, operatorPostOnly, opsAuthRoutes, requireOperator } from './ops-auth.js';

/**
 * The operations view, for the shop's operators: find an account, see why it has access or not
 * and its history, compare with the service, reconcile it now; webhook health and recent
 * deliveries; the reconciler's last runs. The pages' data comes from ops/ops-pages.ts; this only
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
}): Router {
  const router = new Router();
  if (access === undefined) {
    // Off: every address under /ops says so, and how to turn it on; nothing else is served there.
    router.all(/^\/ops(?:\/.*)?$/, (ctx) => views.render(ctx, 'ops-disabled', {}, 404));
    return router;
  }
  router.use(opsAuthRoutes({ kit, views, shopOrigin, access, logger }).routes());

  const render = (ctx: Context, template: string, data: object) =>
    views.render(ctx, template, { ...opsFrame(kit, operatorIdOfRequest(ctx) ?? ''), ...data });

  router.get('/ops', requireOperator, (ctx) => render(ctx, 'ops-home', homePage(kit)));
  router.get('/ops/webhooks', requireOperator, async (ctx) =>
    render(ctx, 'ops-webhooks', await webhooksPage(kit, views.context(ctx))),
  );
  router.get('/ops/reconcile', requireOperator, (ctx) =>
    render(ctx, 'ops-reconcile', reconcilePage(reconciler, kit, views.context(ctx))),
  );
  router.get('/ops/account', requireOperator, async (ctx) => {
    const accountKey = accountKeyFrom(ctx.query.key);
    if (accountKey === undefined) return seeOther(ctx, '/ops');
    const words = views.context(ctx);
    render(ctx, 'ops-account', await accountPage(kit, accountKey, { read: ctx.query.read === '1', words }));
  });
  router.post('/ops/account/reconcile', operatorPostOnly({ kit, shopOrigin }), async (ctx) => {
    const accountKey = accountKeyFrom(formOf(ctx).key);
    if (accountKey === undefined) return seeOther(ctx, '/ops');
    const words = views.context(ctx);
    // The result is this response's page: a reload asks again, which reconciling allows.
    const done = await reconcileAccountNow(kit, reconciler, accountKey, words);
    render(ctx, 'ops-account', { ...(await accountPage(kit, accountKey, { read: false, words })), ...done });
  });

  return router;
}
