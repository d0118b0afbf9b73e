import { apiRoute } from '../api/api-route.js';
import { chaosSettingsSchema } from '../config/chaos-settings.js';
import { successReply } from '../http/reply.js';
import type { Router } from '../http/router.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { readControlBody } from './read-control-body.js';

/**
 * GET /sandbox/chaos and PUT /sandbox/chaos: the delivery chaos settings. A PUT replaces them all
 * (what it leaves out is off) and restarts the dice from the seed.
 */
export function addChaosRoutes(router: Router, outbox: WebhookOutbox): void {
  router
    .add('GET', '/sandbox/chaos', () => successReply(200, outbox.chaosSettings()))
    .add(
      'PUT',
      '/sandbox/chaos',
      apiRoute((request) => {
        const settings = readControlBody(
          request,
          chaosSettingsSchema,
          'chaos settings: seed, duplicateProbability, reorderProbability, reorderHoldSeconds, delayProbability, maxDelaySeconds, staleSignatureProbability',
        );
        outbox.setChaos(settings);
        return successReply(200, settings);
      }),
    );
}
