import type { DcbKit } from '@dcbkit/core';
import { homePage, reconcilePage, webhooksPage } from '../ops/ops-pages.js';
import type { ShopReconciler } from '../reconciler.js';
import type { Views } from '../views.js';
import type { ShopRoute } from '../web/shop-route.js';
import { requireOperator } from './ops-auth.js';
import type { OpsRender } from './ops-render.js';

/** The operations view's home (find an account), webhook health and recent deliveries, the reconciler's last runs. */
export function opsOverviewRoutes({
  kit,
  views,
  reconciler,
  render,
}: {
  kit: DcbKit;
  views: Views;
  reconciler: ShopReconciler;
  render: OpsRender;
}): ShopRoute[] {
  return [
    {
      method: 'GET',
      path: '/ops',
      guards: [requireOperator],
      handle: (request) => render(request, 'ops-home', homePage(kit)),
    },
    {
      method: 'GET',
      path: '/ops/webhooks',
      guards: [requireOperator],
      handle: async (request) =>
        render(request, 'ops-webhooks', await webhooksPage(kit, views.context(request))),
    },
    {
      method: 'GET',
      path: '/ops/reconcile',
      guards: [requireOperator],
      handle: (request) =>
        render(request, 'ops-reconcile', reconcilePage(reconciler, kit, views.context(request))),
    },
  ];
}
