import { chaosSettingsSchema } from '../config/chaos-settings.js';
import { successReply } from '../http/reply.js';
import type { RouteHandler } from '../http/router.js';
import type { ControlDeps } from './control-deps.js';
import { readControlBody } from './read-control-body.js';

/** GET /sandbox/chaos: the delivery chaos settings in force. */
export function readChaos({ outbox }: ControlDeps): RouteHandler {
  return () => successReply(200, outbox.chaosSettings());
}

/** PUT /sandbox/chaos: replaces them all (what it leaves out is off) and restarts the dice from the seed. */
export function replaceChaos({ outbox }: ControlDeps): RouteHandler {
  return (request) => {
    const settings = readControlBody(
      request,
      chaosSettingsSchema,
      'chaos settings: seed, duplicateProbability, reorderProbability, reorderHoldSeconds, delayProbability, maxDelaySeconds, staleSignatureProbability, indentedBodyProbability',
    );
    outbox.setChaos(settings);
    return successReply(200, settings);
  };
}
