import { htmlReply } from '../checkout/layout.js';
import type { EnvironmentApplication } from '../config/environment-config.js';
import { redirectReply, successReply } from '../http/reply.js';
import type { RouteHandler } from '../http/router.js';
import type { ControlDeps } from './control-deps.js';
import { dashboardPage } from './control-pages.js';

/** GET /: a person who opens the bare host lands on the dashboard. */
export const redirectToDashboard: RouteHandler = () => redirectReply('/sandbox', 302);

/** GET /sandbox: what is configured, and a button per offer to pay for it in this browser. */
export function showDashboard(deps: ControlDeps): RouteHandler {
  const { catalog, review, pendingSecrets, environment, apiBaseUrl } = deps;
  return () => htmlReply(200, dashboardPage({ catalog, review, pendingSecrets, environment, apiBaseUrl }));
}

/**
 * GET /sandbox/config: the config this environment runs on (test helpers choose numbers from it).
 * A production client secret in it (an application approved in the config) is left out: the
 * sandbox shows it only once, when its review issues it.
 */
export function showConfig({ catalog }: ControlDeps): RouteHandler {
  return () =>
    successReply(200, {
      ...catalog.config,
      applications: catalog.config.applications.map(withoutProductionSecret),
    });
}

function withoutProductionSecret(app: EnvironmentApplication): EnvironmentApplication {
  if (app.production?.clientSecret === undefined) return app;
  const { clientSecret: _, ...production } = app.production;
  return { ...app, production };
}
