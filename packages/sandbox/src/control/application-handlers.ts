import { z } from 'zod';
import type { EnvironmentApplication } from '../config/environment-config.js';
import { redirectReply, successReply } from '../http/reply.js';
import type { RouteHandler } from '../http/router.js';
import { ApiError } from '../shared/api-error.js';
import type { ControlDeps } from './control-deps.js';
import { readControlBody } from './read-control-body.js';

const webhookUrlBodySchema = z.strictObject({ url: z.url({ protocol: /^https?$/ }).nullable() });

/** GET /sandbox/applications: each application with its go-live state and webhook URL. */
export function listApplications({ catalog, review, outbox, environment }: ControlDeps): RouteHandler {
  return () =>
    successReply(
      200,
      catalog.config.applications.map((app) => ({
        clientId: app.clientId,
        name: app.name,
        environment,
        live: review.isLive(app.clientId),
        webhookUrl: outbox.webhookUrl(app.clientId),
      })),
    );
}

/**
 * POST /sandbox/applications/{clientId}/approve: passes the go-live review, which issues the
 * application's client secret. The answer carries it, the one time it is shown; a form post from
 * the dashboard is sent back to the dashboard, which shows it once. SBX-409 for a live application.
 */
export function approveApplication(deps: ControlDeps): RouteHandler {
  return (request) => {
    const { clientId, webhook } = knownApplication(deps, request.params.clientId);
    if (deps.review.isLive(clientId)) {
      throw new ApiError(
        'SBX-409',
        `${clientId} is already live: its client secret was shown once, when its review passed.`,
      );
    }
    const clientSecret = deps.review.approve(clientId);
    if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      deps.pendingSecrets.leave(clientId, clientSecret);
      return redirectReply('/sandbox');
    }
    return successReply(200, {
      clientId,
      environment: deps.environment,
      live: true,
      clientSecret,
      webhookSecret: webhook.secret,
    });
  };
}

/** PUT /sandbox/applications/{clientId}/webhook-url `{ url }`: points its events elsewhere, or nowhere. */
export function setApplicationWebhookUrl(deps: ControlDeps): RouteHandler {
  return (request) => {
    const { clientId } = knownApplication(deps, request.params.clientId);
    const { url } = readControlBody(
      request,
      webhookUrlBodySchema,
      '{ "url": "https://..." } or { "url": null }',
    );
    deps.outbox.setWebhookUrl(clientId, url);
    return successReply(200, { clientId, url });
  };
}

function knownApplication(
  { catalog, environment }: ControlDeps,
  clientId: string | undefined,
): EnvironmentApplication {
  const application = catalog.application(clientId ?? '');
  if (!application) throw new ApiError('SBX-404', `No application ${clientId ?? ''} in ${environment}.`);
  return application;
}
