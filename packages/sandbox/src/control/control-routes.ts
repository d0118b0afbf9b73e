import { withErrorEnvelope } from '../http/error-envelope.js';
import type { RouteHandler, Router } from '../http/router.js';
import { approveApplication, listApplications, setApplicationWebhookUrl } from './application-handlers.js';
import { readChaos, replaceChaos } from './chaos-handlers.js';
import { advanceClock, readClock } from './clock-handlers.js';
import type { ControlDeps } from './control-deps.js';
import { redirectToDashboard, showConfig, showDashboard } from './dashboard-handlers.js';
import { serveFavicon } from './favicon-handler.js';
import { listPayments, readPayment, showReturnPage, startDashboardCheckout } from './payment-handlers.js';
import { PendingSecrets } from './pending-secrets.js';
import { listSms, showInbox } from './sms-handlers.js';
import { listSubscriptions, readSubscription, setRenewalOutcome } from './subscription-handlers.js';
import { listWebhooks, readWebhook, replayWebhook } from './webhook-handlers.js';

/**
 * Endpoints the real service does not have, all under /sandbox/ of each environment's host: the
 * dashboard, the SMS inbox, webhook deliveries and replay, each application's webhook URL and
 * go-live review, the clock, delivery chaos and forced renewal outcomes. One handler per endpoint;
 * a refusal becomes the error envelope (SBX-400, SBX-404).
 */
export function addControlRoutes(router: Router, options: Omit<ControlDeps, 'pendingSecrets'>): void {
  const deps: ControlDeps = { ...options, pendingSecrets: new PendingSecrets() };
  const control = (handler: (deps: ControlDeps) => RouteHandler) => withErrorEnvelope(handler(deps));
  router
    .add('GET', '/', redirectToDashboard)
    .add('GET', '/favicon.ico', serveFavicon)
    .add('GET', '/favicon.svg', serveFavicon)
    .add('GET', '/sandbox', control(showDashboard))
    .add('GET', '/sandbox/config', control(showConfig))
    .add('GET', '/sandbox/applications', control(listApplications))
    .add('POST', '/sandbox/applications/:clientId/approve', control(approveApplication))
    .add('PUT', '/sandbox/applications/:clientId/webhook-url', control(setApplicationWebhookUrl))
    .add('GET', '/sandbox/webhooks', control(listWebhooks))
    .add('GET', '/sandbox/webhooks/:id', control(readWebhook))
    .add('POST', '/sandbox/webhooks/:id/replay', control(replayWebhook))
    .add('GET', '/sandbox/payments', control(listPayments))
    .add('GET', '/sandbox/payments/:paymentUid', control(readPayment))
    .add('POST', '/sandbox/checkout', control(startDashboardCheckout))
    .add('GET', '/sandbox/return', control(showReturnPage))
    .add('GET', '/sandbox/sms', control(listSms))
    .add('GET', '/sandbox/inbox', control(showInbox))
    .add('GET', '/sandbox/clock', control(readClock))
    .add('POST', '/sandbox/clock/advance', control(advanceClock))
    .add('GET', '/sandbox/chaos', control(readChaos))
    .add('PUT', '/sandbox/chaos', control(replaceChaos))
    .add('GET', '/sandbox/subscriptions', control(listSubscriptions))
    .add('GET', '/sandbox/subscriptions/:subscriptionUid', control(readSubscription))
    .add('POST', '/sandbox/subscriptions/:subscriptionUid/renewal-outcome', control(setRenewalOutcome));
}
