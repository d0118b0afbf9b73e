import { htmlReply } from '../checkout/layout.js';
import { redirectReply, successReply } from '../http/reply.js';
import type { RouteHandler } from '../http/router.js';
import type { ControlDeps } from './control-deps.js';
import { dashboardPage } from './control-pages.js';

/** GET /: a person who opens the bare host lands on the dashboard. */
export const redirectToDashboard: RouteHandler = () => redirectReply('/sandbox', 302);

/** GET /sandbox: what is configured, and a button per offer to pay for it in this browser. */
export function showDashboard({ catalog, review, environment, apiBaseUrl }: ControlDeps): RouteHandler {
  return () => htmlReply(200, dashboardPage({ catalog, review, environment, apiBaseUrl }));
}

/** GET /sandbox/config: the config this environment runs on (test helpers choose numbers from it). */
export function showConfig({ catalog }: ControlDeps): RouteHandler {
  return () => successReply(200, catalog.config);
}
