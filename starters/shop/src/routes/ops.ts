import type { DcbKit } from '@dcbkit/core';
import type { ShopLogger } from '../logger.js';
import type { OperatorAccess } from '../ops/operator-password.js';
import type { ShopReconciler } from '../reconciler.js';
import type { Views } from '../views.js';
import type { ShopRoute } from '../web/shop-route.js';
import { opsAccountRoutes } from './ops-account.js';
import { opsAuthRoutes } from './ops-auth.js';
import { opsBusinessRoutes } from './ops-business.js';
import { opsOverviewRoutes } from './ops-overview.js';
import { opsRender } from './ops-render.js';

/**
 * The operations view, for the shop's operators: find an account, see why it has access or not
 * and its history, compare with the service, reconcile it now; webhook health and recent
 * deliveries; the reconciler's last runs; the business at a glance (kit.metrics), as charts,
 * tables and a CSV; a phone line's accounts, and a banner naming the lines that pay twice. The
 * pages' data comes from ops/; each group of routes reads its requests and renders.
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
  const render = opsRender(kit, views);
  return [
    ...opsAuthRoutes({ kit, views, shopOrigin, access, logger }),
    ...opsOverviewRoutes({ kit, views, reconciler, render }),
    ...opsBusinessRoutes({ kit, views, render }),
    ...opsAccountRoutes({ kit, views, reconciler, shopOrigin, render }),
  ];
}
