import type { DcbKit } from '@dcbkit/core';
import { type Request, type Response, Router } from 'express';
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
import { operatorIdOfRequest, operatorPostOnly, opsAuthRoutes, requireOperator } from './ops-auth.js';

/**
 * The operations view, for the shop's operators: find an account, see why it has access or not
 * and its history, compare with the service, reconcile it now; webhook health and recent
 * deliveries; the reconciler's last runs. The pages' data comes from ops/ops-pages.ts; this only
 * reads requests and renders. Express 5 sends a rejected handler's error to the error page.
 */
export function opsRoutes({
  kit,
  views,
  reconciler,
  shopOrigin,
  access,
}: {
  kit: DcbKit;
  views: Views;
  reconciler: ShopReconciler;
  shopOrigin: string;
  /** Undefined: no OPERATOR_PASSWORD outside the embedded sandbox, so the view is off. */
  access: OperatorAccess | undefined;
}): Router {
  const router = Router();
  if (access === undefined) {
    // Off: every address under /ops says so, and how to turn it on; nothing else is served there.
    router.use('/ops', (req, res) => views.render(req, res, 'ops-disabled', {}, 404));
    return router;
  }
  router.use(opsAuthRoutes({ kit, views, shopOrigin, access }));

  const render = (req: Request, res: Response, template: string, data: object) =>
    views.render(req, res, template, { ...opsFrame(kit, operatorIdOfRequest(req) ?? ''), ...data });

  router.get('/ops', requireOperator, (req, res) => render(req, res, 'ops-home', homePage(kit)));
  router.get('/ops/webhooks', requireOperator, async (req, res) =>
    render(req, res, 'ops-webhooks', await webhooksPage(kit, views.context(req))),
  );
  router.get('/ops/reconcile', requireOperator, (req, res) =>
    render(req, res, 'ops-reconcile', reconcilePage(reconciler, kit, views.context(req))),
  );
  router.get('/ops/account', requireOperator, async (req, res) => {
    const accountKey = accountKeyFrom(req.query.key);
    if (accountKey === undefined) return res.redirect(303, '/ops');
    const words = views.context(req);
    render(
      req,
      res,
      'ops-account',
      await accountPage(kit, accountKey, { read: req.query.read === '1', words }),
    );
  });
  router.post('/ops/account/reconcile', operatorPostOnly({ kit, shopOrigin }), async (req, res) => {
    const accountKey = accountKeyFrom(req.body?.key);
    if (accountKey === undefined) return res.redirect(303, '/ops');
    const words = views.context(req);
    // The result is this response's page: a reload asks again, which reconciling allows.
    const done = await reconcileAccountNow(kit, reconciler, accountKey, words);
    render(req, res, 'ops-account', {
      ...(await accountPage(kit, accountKey, { read: false, words })),
      ...done,
    });
  });

  return router;
}
